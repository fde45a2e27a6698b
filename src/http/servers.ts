// Starts the five hosts, each its own HTTP listener, in one process.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { createHost, type AuthMode, type HostName, type RouteInfo } from './host.js';
import { HostDirectory } from './host-directory.js';
import { apiRoutes } from './api/index.js';
import { dataroomRoutes } from './dataroom.js';
import { docsHome, docsRoutes } from './docs.js';
import { JSON_OFFER, negotiate } from './negotiate.js';
import { labRoutes } from './lab.js';
import { mcpRoutes } from './mcp/endpoint.js';
import { HOST_INDEX_SCHEMA_VERSION } from '../kernel/versions.js';
import { refusals } from '../kernel/refusal.js';
import { hostIndex } from './schemas/system.js';
import { collectOperations, isContractHost, type ContractHost } from './contract.js';

interface HostPlan {
  name: HostName;
  port: number;
  defaultAuth: AuthMode;
  what: string;
  index: string;
  register: (app: FastifyInstance, services: Services) => void;
  /** The host's home page for a browser (an Accept preferring HTML); JSON clients get the index. */
  home?: () => string;
}

const HOME_OFFERS = [JSON_OFFER, { format: 'html', type: 'text/html' }] as const;

/** Whether Accept prefers the home page to the JSON index; one admitting neither still gets the index, as on every host. */
function prefersHtml(request: FastifyRequest): boolean {
  try {
    return negotiate(request, HOME_OFFERS).format === 'html';
  } catch {
    return false;
  }
}

function plans(services: Services, contractHosts: readonly ContractHost[], directory: HostDirectory): HostPlan[] {
  const { ports } = services.config;
  return [
    { name: 'api', port: ports.api, defaultAuth: 'key', what: 'The catrisk API: ingest, objects, structures, backtests, prices, feeds, events and hazard.', index: '/health', register: apiRoutes },
    { name: 'docs', port: ports.docs, defaultAuth: 'none', what: 'The catrisk documentation; append .md to a page path for raw markdown.', index: '/llms.txt', register: docsRoutes(contractHosts, directory), home: docsHome },
    { name: 'mcp', port: ports.mcp, defaultAuth: 'optional', what: 'The catrisk tool protocol (stateless Streamable HTTP).', index: '/mcp', register: (app) => mcpRoutes(app, services, directory) },
    { name: 'data', port: ports.data, defaultAuth: 'key', what: 'The catrisk data room: archived risk datasets with licence, credit line, provenance and per-file digests.', index: '/catalog', register: dataroomRoutes },
    { name: 'lab', port: ports.lab, defaultAuth: 'key', what: 'The catrisk model lab: externally built open models run over caller-supplied exposure.', index: '/models', register: (app) => labRoutes(app, services, directory) },
  ];
}

export interface RunningHost {
  name: HostName;
  url: string;
  app: FastifyInstance;
  /** Every route the host serves (HEAD twins of GET routes left out). */
  routes: readonly RouteInfo[];
}

export async function buildHosts(services: Services, directory = new HostDirectory()): Promise<Array<{ plan: HostPlan; app: FastifyInstance; routes: RouteInfo[] }>> {
  // Filled once every host is built; the docs host reads it when the contract is asked for.
  const contractHosts: ContractHost[] = [];
  const built = await Promise.all(plans(services, contractHosts, directory).map(async (plan) => {
    const routes: RouteInfo[] = [];
    const app = await createHost({
      routes,
      name: plan.name,
      services,
      defaultAuth: plan.defaultAuth,
      register: async (host) => {
        if (isContractHost(plan.name)) await collectOperations(host, plan.defaultAuth);
        host.get('/', { ...hostIndex, config: { auth: 'none' } }, async (request, reply) => {
          if (plan.home && prefersHtml(request)) return reply.type('text/html; charset=utf-8').send(plan.home());
          return { schema_version: HOST_INDEX_SCHEMA_VERSION, host: plan.name, what: plan.what, index: plan.index };
        });
        plan.register(host, services);
      },
    });
    return { plan, app, routes };
  }));
  for (const { plan, app } of built) {
    if (isContractHost(plan.name)) contractHosts.push({ name: plan.name, app });
  }
  return built;
}

export async function startHosts(services: Services): Promise<RunningHost[]> {
  const directory = new HostDirectory();
  const built = await buildHosts(services, directory);
  const running: RunningHost[] = [];
  for (const { plan, app, routes } of built) {
    await app.listen({ host: services.config.host, port: plan.port, listenTextResolver: () => '' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : plan.port;
    directory.listening(plan.name, port);
    // The lab reaches the API host's internal route over loopback, whatever address it listens on.
    if (plan.name === 'api') services.apiLoopbackUrl = `http://${services.config.host.includes(':') ? '[::1]' : '127.0.0.1'}:${port}`;
    const host = services.config.host.includes(':') ? `[${services.config.host}]` : services.config.host;
    running.push({ name: plan.name, url: `http://${host}:${port}`, app, routes });
  }
  return running;
}

/**
 * Closes the hosts for a shutdown: no new connection is taken, requests in flight may finish, and a
 * request that arrives meanwhile on an open connection is answered 503. Requests still unanswered
 * after `answerWithinMs` (a database that stopped answering, say) are answered 503 `server_error`
 * with Connection: close, so no client's connection is dropped without an answer when the process
 * ends at its bound. Resolves when every connection is closed.
 */
export async function closeHosts(hosts: readonly RunningHost[], answerWithinMs: number): Promise<void> {
  const timer = setTimeout(() => {
    for (const host of hosts) void host.app.refuseInFlight(refusals.shuttingDown());
  }, Math.max(0, answerWithinMs));
  timer.unref();
  try {
    await Promise.all(hosts.map((host) => host.app.close()));
  } finally {
    clearTimeout(timer);
  }
}

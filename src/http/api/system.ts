// GET /health: answers 200 when the environment is up, with what the service offers (on the API
// and lab hosts). GET /ready (API host): 200 only when this process can serve, else 503 not_ready.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { canonicalJson } from '../../kernel/canonical-json.js';
import { BEING_RETIRED, DISCOVERY_ROUTES, REGISTRY_ROUTES, VERB_ROUTES, routerPath, type Served } from './verbs.js';
import { health, ready } from '../schemas/system.js';
import { readiness } from '../../app/readiness.js';
import { answer } from '../answer.js';
import { ACCOUNT_SCHEMA_VERSION, ERROR_SCHEMA_VERSION, HEALTH_SCHEMA_VERSION, JOB_SCHEMA_VERSION } from '../../kernel/versions.js';

/** The health document, listing only what the host's router serves (SPEC Versioning 7). */
export function healthDocument(services: Services, serves: (route: Served) => boolean): Record<string, unknown> {
  const verbs = VERB_ROUTES.filter(serves).map((v) => v.verb);
  const registry = Object.fromEntries(REGISTRY_ROUTES.filter(serves).map(({ name, method, path, what }) => [name, { method, path, what }]));
  return {
    schema_version: HEALTH_SCHEMA_VERSION,
    status: 'ok',
    verbs,
    being_retired: { verbs: BEING_RETIRED.filter((v) => verbs.includes(v)), note: 'These verbs still work for existing integrations.' },
    registry,
    discovery: DISCOVERY_ROUTES.filter(serves).map(({ method, path, lists }) => ({ method, path, lists })),
    feeds: feedsLoaded(services),
    build: {
      version: services.config.build.version,
      commit: services.config.build.commit,
      storage: services.database.dialect,
      schema_versions: {
        error: ERROR_SCHEMA_VERSION,
        account: ACCOUNT_SCHEMA_VERSION,
        job: JOB_SCHEMA_VERSION,
        health: HEALTH_SCHEMA_VERSION,
      },
    },
  };
}

/** The pinned snapshots this process serves, as feed_id/version, and how many were refused since start. */
function feedsLoaded(services: Services): { loaded: number; refused: number; snapshots: string[] } {
  const snapshots = (services.feeds?.list() ?? []).map((s) => `${s.feed_id}/${s.version}`);
  return { loaded: snapshots.length, refused: services.feeds?.refused.length ?? 0, snapshots };
}

/** GET /health on a host: the document lists what that host's router serves. */
export function healthRoute(app: FastifyInstance, services: Services) {
  // Written on the first read (every route is registered by then, and none is added later), and
  // again only when a rescan has changed what the feed store serves or refuses.
  let body: string | undefined;
  // Each rescan replaces the store's refused list (a new array), so its identity marks a rescan.
  let feedsSeen: unknown = null;
  app.get('/health', { ...health, config: { auth: 'none' } }, async (_request, reply) => {
    const feeds = services.feeds?.refused;
    if (body === undefined || feeds !== feedsSeen) {
      body = canonicalJson(healthDocument(services, ({ method, path }) => app.hasRoute({ method, url: routerPath(path) })));
      feedsSeen = feeds;
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });
}

export function systemRoutes(app: FastifyInstance, services: Services) {
  healthRoute(app, services);
  app.get('/ready', { ...ready, config: { auth: 'none' } }, async () => answer(await readiness(services)));
}

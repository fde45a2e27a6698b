// The shared edge of every host: user agent, credential, rate limit, canonical JSON and the
// error envelope. Route modules only parse, call one domain or job function, and serialize.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { ApiError, envelope, genericCode, refusals } from './errors.js';
import { canonicalJson } from './canonical-json.js';
import type { Services } from '../services.js';
import { secretDigest } from '../store/accounts.js';
import { isDatabaseUnavailable } from '../store/database.js';
import type { RateDecision } from '../store/rate-counters.js';

export type HostName = 'api' | 'docs' | 'mcp' | 'data' | 'lab';

/** How a route treats credentials: required, none, or checked only when one is sent. */
export type AuthMode = 'key' | 'none' | 'optional';

export interface Caller {
  accountId: string;
  keyId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
  }
}

export interface RouteInfo {
  method: string;
  path: string;
  auth: AuthMode;
}

export interface HostOptions {
  name: HostName;
  services: Services;
  /** Auth mode of routes that do not state one, and of unknown paths. */
  defaultAuth: AuthMode;
  register: (app: FastifyInstance) => void | Promise<void>;
  /** Filled with every route as it is registered (the API contract is generated from it). */
  routes?: RouteInfo[];
}

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export async function createHost(options: HostOptions): Promise<FastifyInstance> {
  const { services, name } = options;
  const app = Fastify({
    // Fastify's own info lines (listening, closing) are noise beside the one line per host.
    loggerInstance: services.log.child({ host: name }, { level: 'warn' }) as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => `req_${Math.random().toString(36).slice(2, 12)}`,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: false,
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false } },
  });

  // A second router, used only to answer 405 with Allow and to know a path's auth before routing.
  const lookup = FindMyWay({ ignoreTrailingSlash: false });
  const publicPaths = FindMyWay();
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethod[];
    const auth = (route.config as { auth?: AuthMode } | undefined)?.auth ?? options.defaultAuth;
    for (const method of methods) {
      if (!METHODS.includes(method)) continue;
      if (method !== 'HEAD') options.routes?.push({ method, path: route.url, auth });
      try {
        lookup.on(method, route.url, () => {}, { auth });
        if (auth !== 'key') publicPaths.on(method, route.url, () => {});
      } catch {
        // HEAD twins of GET routes are registered once.
      }
    }
  });

  app.setReplySerializer((payload) => canonicalJson(payload));

  // An empty JSON body is no body (POST /signup allows one); anything else must parse.
  // JSON is the only body most routes read; routes that read others add their own parser.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, null);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(refusals.invalidRequest(400, 'The body is not valid JSON.'), undefined);
    }
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error, reqId: request.id }, 'request failed');
    void sendError(reply, apiError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((m) => lookup.find(m, path) !== null);
    if (allowed.length > 0) {
      return sendError(reply, new ApiError(405, 'method_not_allowed',
        `${request.method} is not served on ${path}; allowed: ${allowed.join(', ')}`, undefined,
        { allow: allowed.join(', ') }));
    }
    return sendError(reply, refusals.notFound(`No route ${request.method} ${path}`));
  });

  app.addHook('onRequest', async (request, reply) => {
    refuseAnonymousAgent(request, services.config.refusedAgents);
    const auth = authModeOf(request, publicPaths, options.defaultAuth);
    if (auth === 'key' || (auth === 'optional' && request.headers.authorization !== undefined)) {
      request.caller = await authenticate(request, services);
    }
    const decision = request.caller
      ? await services.rate.hit(`key:${request.caller.keyId}`, services.config.rateLimit.key, Date.now())
      : await services.rate.hit(`addr:${request.ip}`, services.config.rateLimit.address, Date.now());
    writeRateHeaders(reply, decision);
    if (!decision.allowed) {
      const scope = request.caller ? 'this key' : 'this client address';
      throw new ApiError(429, 'rate_limited',
        `Rate limit of ${decision.limit} requests per ${decision.windowSeconds} s reached for ${scope}; retry in ${decision.resetSeconds} s.`,
        undefined, { 'retry-after': String(decision.resetSeconds) });
    }
  });

  // Strings holding lone surrogates cannot be written back as canonical JSON: refuse them.
  app.addHook('preValidation', async (request) => {
    const body = request.body;
    if (body !== null && typeof body === 'object' && !ArrayBuffer.isView(body) && !wellFormed(body)) {
      throw refusals.invalidRequest(400, 'The body holds a string with a lone surrogate; send well-formed UTF-8.');
    }
  });

  await options.register(app);
  return app;
}

export function sendError(reply: FastifyReply, error: ApiError) {
  for (const [header, value] of Object.entries(error.headers)) reply.header(header, value);
  return reply.code(error.status).type('application/json; charset=utf-8').send(canonicalJson(envelope(error)));
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) return refusals.databaseUnavailable();
  const e = error as { statusCode?: number; validation?: unknown[]; code?: string; message?: string; validationContext?: string };
  if (Array.isArray(e.validation)) {
    const where = e.validationContext ?? 'body';
    const details = e.validation.map((v) => describeValidation(v as AjvError, where));
    return refusals.invalidRequest(422, `The ${where} is not acceptable: ${details.length} fault${details.length === 1 ? '' : 's'}.`, details);
  }
  const status = typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500;
  if (status >= 500) return new ApiError(500, 'internal_error', 'The service failed for a reason that is not the request\'s fault.');
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return refusals.invalidRequest(400, 'The body is not valid JSON.');
  }
  if (status === 400) return refusals.invalidRequest(400, 'The request could not be read: ' + (e.message ?? 'malformed'));
  if (status === 413) return new ApiError(413, 'payload_too_large', 'The body is larger than this route accepts.');
  if (status === 415) return new ApiError(415, 'unsupported_media_type', 'This route does not read that content type; send application/json.');
  return new ApiError(status, genericCode(status), e.message || 'The request was refused.');
}

interface AjvError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function describeValidation(v: AjvError, where: string): string {
  const at = `${where}${v.instancePath ? v.instancePath.replace(/\//g, '.') : ''}`;
  if (v.keyword === 'additionalProperties') return `${at} has an unknown member "${String(v.params?.additionalProperty)}"`;
  if (v.keyword === 'required') return `${at} is missing the required member "${String(v.params?.missingProperty)}"`;
  return `${at} ${v.message ?? 'is not acceptable'}`;
}

function refuseAnonymousAgent(request: FastifyRequest, refused: readonly string[]) {
  const agent = (request.headers['user-agent'] ?? '').trim().toLowerCase();
  if (agent === '' || refused.some((prefix) => agent.startsWith(prefix))) {
    throw new ApiError(403, 'forbidden',
      'Send a descriptive User-Agent naming your application (for example "acme-pricing/1.2"); anonymous default-library agents are refused.');
  }
}

function authModeOf(request: FastifyRequest, publicPaths: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>, fallback: AuthMode): AuthMode {
  if (!request.is404) return request.routeOptions.config.auth ?? fallback;
  // Unknown route: a path that is public under another method answers 405 without a key;
  // any other unknown path asks for the key first (SPEC Authentication 6).
  const path = request.url.split('?')[0] ?? '/';
  if (METHODS.some((m) => publicPaths.find(m, path) !== null)) return 'none';
  return fallback;
}

const keyCache = new Map<string, Caller>();

async function authenticate(request: FastifyRequest, services: Services): Promise<Caller> {
  const header = request.headers.authorization;
  if (header === undefined) throw refusals.unauthenticated('No Authorization header; send Authorization: Bearer <API key> (POST /signup issues one).');
  const match = /^(\S+)(?:\s+(.*))?$/.exec(header.trim());
  if (!match || match[1]!.toLowerCase() !== 'bearer') {
    throw refusals.unauthenticated('The Authorization scheme is not read here; the only scheme is Bearer.');
  }
  const secret = (match[2] ?? '').trim();
  if (secret === '') throw refusals.unauthenticated('The Bearer scheme arrived with an empty key (an unset shell variable?).');
  const digest = secretDigest(secret);
  let caller = keyCache.get(digest);
  if (!caller) {
    const row = await services.accounts.keyByDigest(digest);
    if (!row) throw refusals.unauthenticated('This key is not held by this environment (altered on the way, or from another environment).');
    caller = { accountId: row.account_id, keyId: row.key_id };
    // Keys never expire and are never reassigned, so a digest's owner can be remembered.
    if (keyCache.size > 50_000) keyCache.clear();
    keyCache.set(digest, caller);
  }
  return caller;
}

function writeRateHeaders(reply: FastifyReply, d: RateDecision) {
  // draft-ietf-httpapi-ratelimit-headers: a named policy, its quota (q) and window (w) in
  // RateLimit-Policy; the remaining quota (r) and seconds to reset (t) in RateLimit.
  reply.header('ratelimit-policy', `"default";q=${d.limit};w=${d.windowSeconds}`);
  reply.header('ratelimit', `"default";r=${d.remaining};t=${d.resetSeconds}`);
}

function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([k, v]) => k.isWellFormed() && wellFormed(v));
  }
  return true;
}

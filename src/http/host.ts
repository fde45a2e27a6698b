// The shared edge of every host: user agent, credential, rate limit, canonical JSON and the
// error envelope. Route modules only parse, call one domain or job function, and serialize.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ApiError, genericCode, refusal, refusals, type Refusal } from '../kernel/refusal.js';
import { envelope, writeRefusal } from './errors.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { bodyFault, describeBodyFault } from './json-body.js';
import { schemaRefusal, textFormats } from './schemas/faults.js';
import { isAnonymousAgent } from './user-agents.js';
import { allowOrigin, answerPreflight, isPreflight } from './cors.js';
import { DEPRECATION } from './schemas/operation.js';
import { admitInternal } from './internal-credential.js';
import { idempotencyHooks } from './idempotency.js';
import { parserRefusal, rawHead, writeRawRefusal, type ParserError } from './unreadable-requests.js';
import type { Services } from '../services.js';
import { secretDigest } from '../store/accounts.js';
import { isDatabaseUnavailable } from '../store/database.js';
import type { RateDecision } from '../store/rate-counters.js';
import { UNMATCHED_ROUTE, UNREADABLE_ROUTE, type HttpSeries } from '../telemetry/metrics.js';
import { isWellFormedRequestId, newRequestId, REQUEST_ID_HEADER, requestIdOf } from '../telemetry/request-ids.js';
import { parseTraceparent, startSpan } from '../telemetry/trace-context.js';
import { currentWork, runAs, type Work } from '../telemetry/work.js';

export type HostName = 'api' | 'docs' | 'mcp' | 'data' | 'lab';

/**
 * How a route treats credentials: an API key required, none, an API key checked only when one is
 * sent, or the environment's internal credential (http/internal-credential.ts) instead of a key.
 * Every mode is applied by the edge in onRequest, before the route's schema is checked.
 */
export type AuthMode = 'key' | 'none' | 'optional' | 'internal';

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
    /** The route belongs to a verb being retired (operation({ retiring })): its answers carry Deprecation. */
    deprecated?: boolean;
  }
  interface FastifyInstance {
    /**
     * The caller a credential names, by the edge's own rules (the key's digest, wrong keys counted
     * per address, the key's rate limit): for a front door that reads its key after routing, as the
     * tool server does from a tool's api_key argument or the Authorization header. Throws the
     * refusal (401, 429) as the carrier.
     */
    callerOf(authorization: string | undefined, ip: string): Promise<Caller>;
    /**
     * Answers every request still in flight that has not begun its answer with the refusal (in the
     * envelope, with its RateLimit headers and Connection: close), for a shutdown that cannot wait
     * for them. Answers how many were answered.
     */
    refuseInFlight(refusal: Refusal): Promise<number>;
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
  /** Filled with every route as it is registered. */
  routes?: RouteInfo[];
}

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Where a request's work (its id and span) is kept on the raw request, for its last hook. */
const WORK = Symbol('catrisk.work');
type RequestWithWork = IncomingMessage & { [WORK]?: Work };

/**
 * Every request is handled as its own work, from before routing: its id (the client's when well
 * formed) and its span, a child of the trace it carried. The id is written on the answer by the
 * edge (reply.header, so Node writes Fastify's headers in one pass); while the host closes it is
 * set on the raw response as well (`closing`), as answers written at shutdown may bypass the reply.
 */
function asWork(handler: (request: IncomingMessage, response: ServerResponse) => void, closing: () => boolean) {
  return (request: RequestWithWork, response: ServerResponse) => {
    const { headers } = request;
    const requestId = requestIdOf(headers[REQUEST_ID_HEADER]);
    if (closing()) response.setHeader(REQUEST_ID_HEADER, requestId);
    const span = startSpan(request.method ?? 'HTTP', SpanKind.SERVER, headers.traceparent === undefined ? undefined : parseTraceparent(headers.traceparent, headers.tracestate));
    const work: Work = { requestId, span };
    request[WORK] = work;
    runAs(work, () => handler(request, response));
  };
}

/** Longest path segment a route parameter takes; ids are far shorter. Longer answers 414. */
export const MAX_PARAM_LENGTH = 200;

/**
 * The host's routes as the edge reads them outside routing: the methods served on a path (405 with
 * Allow) and whether a path is public under some method (its auth before routing). Filled as routes
 * are registered; read once they all are (`complete`).
 */
class ServedRoutes {
  /** A second router, used only to answer 405 with Allow and to know a path's auth before routing. */
  readonly lookup = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH });
  readonly publicPaths = FindMyWay({ maxParamLength: MAX_PARAM_LENGTH });
  private readonly served = new Set<HTTPMethod>();
  private complete = false;

  constructor(private readonly defaultAuth: AuthMode, private readonly list: RouteInfo[] | undefined) {}

  add(route: { method: string | string[]; url: string; config?: unknown }): void {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethod[];
    const auth = (route.config as { auth?: AuthMode } | undefined)?.auth ?? this.defaultAuth;
    for (const method of methods) {
      if (!METHODS.includes(method)) continue;
      this.served.add(method);
      if (method !== 'HEAD') this.list?.push({ method, path: route.url, auth });
      try {
        this.lookup.on(method, route.url, () => {}, { auth });
        if (auth !== 'key') this.publicPaths.on(method, route.url, () => {});
      } catch {
        // HEAD twins of GET routes are registered once.
      }
    }
  }

  /** Every route is registered: parser refusals that can read the path use the table from now on. */
  completed(): void {
    this.complete = true;
  }

  /** The methods served on a path. */
  methodsOf(path: string): HTTPMethod[] {
    return this.complete ? METHODS.filter((m) => this.lookup.find(m, path) !== null) : [];
  }

  /** The methods this host serves on any path. */
  servedMethods(): HTTPMethod[] {
    return this.complete ? METHODS.filter((m) => this.served.has(m)) : [];
  }

  /** A path's auth before routing: none when it is public under some method. */
  authOfPath(path: string): AuthMode {
    return this.complete && METHODS.some((m) => this.publicPaths.find(m, path) !== null) ? 'none' : this.defaultAuth;
  }
}

/**
 * The request being answered on each connection, until its answer is written: a shutdown answers
 * those it cannot wait for, and a parser refusal on the same connection reuses its RateLimit headers.
 */
class RequestsInFlight {
  readonly replies = new Set<FastifyReply>();
  readonly onConnection = new Map<Duplex, { reply: FastifyReply; admitted: Promise<unknown> }>();
  /** Connections a parser refusal is being written on. */
  readonly refused = new WeakSet<Duplex>();

  /** Tracks a request from the start of its edge (`admitted`: the edge's check) to its answer. */
  track(reply: FastifyReply, admitted: Promise<unknown>): Promise<unknown> {
    const socket = reply.request.raw.socket;
    const entry = { reply, admitted: admitted.catch(() => {}) };
    this.replies.add(reply);
    this.onConnection.set(socket, entry);
    reply.raw.once('close', () => {
      this.replies.delete(reply);
      if (this.onConnection.get(socket) === entry) this.onConnection.delete(socket);
    });
    return admitted;
  }
}

/** What the pieces of one host share. */
interface HostState {
  readonly name: HostName;
  readonly services: Services;
  readonly defaultAuth: AuthMode;
  readonly edge: Edge;
  readonly routes: ServedRoutes;
  readonly inFlight: RequestsInFlight;
  readonly series: HttpSeries;
  /** One line per request at info (the host's Fastify logger keeps to warnings and errors). */
  readonly access: Logger;
  /** Set once the host begins to close: requests that still arrive (on a kept-alive connection) are refused 503. */
  closing: boolean;
}

export async function createHost(options: HostOptions): Promise<FastifyInstance> {
  const { services, name } = options;
  const state: HostState = {
    name, services, defaultAuth: options.defaultAuth, edge: new Edge(services),
    routes: new ServedRoutes(options.defaultAuth, options.routes), inFlight: new RequestsInFlight(),
    series: services.metrics.http(name), access: services.log.child({ host: name }), closing: false,
  };
  const app = fastifyFor(state);
  app.addHook('onRoute', (route) => state.routes.add(route));
  app.setReplySerializer((payload) => canonicalJson(payload));
  app.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    void answerConnect(state, request, socket).catch(() => socket.destroy());
  });
  // A request with an Expect other than 100-continue still goes through the edge, then 417.
  app.server.on('checkExpectation', asWork((request, response) => app.routing(request, response), () => state.closing));
  readJsonBodies(app);
  answerFaults(app, state);
  edgeHooks(app, state);
  idempotencyHooks(app, services);
  app.decorate('callerOf', (authorization: string | undefined, ip: string) => state.edge.callerOf(authorization, ip));
  app.decorate('refuseInFlight', (answer: Refusal) => refuseInFlight(state, ApiError.of(answer)));
  await options.register(app);
  state.routes.completed();
  return app;
}

/** The host's Fastify over its own Node server, with the edge's answers to what never reaches a route. */
function fastifyFor(state: HostState): FastifyInstance {
  const { services, name, edge, inFlight } = state;
  const { timeouts } = services.config;
  return Fastify<Server>({
    serverFactory: (handler) => createServer({
      // Node answers an HTTP/1.1 request without Host itself, with an empty 400; the edge answers it
      // in the envelope instead (onRequest below).
      requireHostHeader: false,
      // Slow clients: headers must arrive within headersMs and the whole request within requestMs,
      // or the request is answered 408 and its connection closed (checked every second).
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
    }, asWork(handler, () => state.closing)),
    clientErrorHandler: (connectionError: Error, socket: Duplex) => {
      const error = connectionError as ParserError;
      // One answer a connection: Node may report a second fault on a connection already answered
      // (a late request's timeout firing again), which must not be counted or answered again.
      if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable || inFlight.refused.has(socket)) return;
      inFlight.refused.add(socket);
      void answerUnreadable(state, error, socket).catch(() => socket.destroy());
    },
    frameworkErrors: (error, request, reply) => {
      // Fastify's own refusals before routing (a path that is not valid percent-encoding, a
      // parameter over MAX_PARAM_LENGTH): the edge runs first, then the refusal in the envelope.
      reply.header(REQUEST_ID_HEADER, request.id);
      void inFlight.track(reply, edge.admit(request, reply, state.defaultAuth))
        .then(() => { throw error; })
        .catch((e: unknown) => sendError(reply, toApiError(e)));
    },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Fastify's own info lines (listening, closing) are noise beside the one line per host; a
    // stricter CATRISK_LOG_LEVEL (error, silent) holds for its lines too.
    loggerInstance: services.log.child({ host: name }, { level: services.log.levelVal > services.log.levels.values.warn! ? services.log.level : 'warn' }) as unknown as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request: the service's logger names the work's reqId on every line
    // (telemetry/logger.ts), and the few lines a request logs here name it themselves.
    childLoggerFactory: (logger) => logger,
    // The id asWork read or made: Fastify's request.id, the reqId of its log lines.
    genReqId: () => currentWork()?.requestId ?? newRequestId(),
    bodyLimit: 1024 * 1024,
    // Fastify's own 503 while closing is not the envelope: the edge answers it (onRequest below).
    return503OnClosing: false,
    forceCloseConnections: false,
    // Query values stay text (no coercion: "" is not 0, a repeated parameter stays an array) and
    // are checked by named text formats; verbose errors carry what the fault formatter words.
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false, verbose: true }, plugins: [textFormats] },
    schemaErrorFormatter: (faults, part) => schemaRefusal(faults, part),
  });
}

// Node's parser refused the request. When the head is whole (an unknown or lower-case method),
// the edge's order still holds: agent, then key, then path. Otherwise the answer is counted
// against the client address (or, when the refusal falls on a request already admitted, such as
// a body that is malformed or late, carries that request's RateLimit headers), and a client over
// its limit is answered 429 as on any route.
async function answerUnreadable(state: HostState, error: ParserError, socket: Duplex) {
  const { edge, routes, services, name, access, defaultAuth } = state;
  let apiError = parserRefusal(error, services.config.timeouts);
  let rate: Record<string, string> = {};
  const ip = addressOf(socket);
  const head = error.code === 'HPE_INVALID_METHOD' ? rawHead(error.rawPacket) : undefined;
  const requestId = isWellFormedRequestId(head?.headers[REQUEST_ID_HEADER]) ? head.headers[REQUEST_ID_HEADER] : newRequestId();
  if (head) {
    const path = head.path.split('?')[0]!;
    const allowed = routes.methodsOf(path);
    try {
      rate = await edge.admitHeaders(head.headers, ip, allowed.length > 0 ? routes.authOfPath(path) : defaultAuth);
      apiError = allowed.length > 0
        ? ApiError.of(refusal(405, 'method_not_allowed', `${head.method.slice(0, 20)} is not a method served on ${path}; allowed: ${allowed.join(', ')} (methods are upper case)`, undefined, { allow: allowed.join(', ') }))
        : ApiError.of(refusals.notFound(`No route ${head.method.slice(0, 20)} ${path}`));
    } catch (e) {
      apiError = toApiError(e);
    }
  } else {
    const admitted = state.inFlight.onConnection.get(socket);
    if (admitted) {
      // The parser may refuse the body in the same turn it handed the head over: the edge's
      // check of that request is still running.
      await within(COUNT_WAIT_MS, admitted.admitted, undefined);
      rate = rateHeadersOfReply(admitted.reply);
    } else {
      try {
        rate = await within(COUNT_WAIT_MS, edge.countAddress(ip), {});
      } catch (e) {
        // Over the limit: 429. A counter that cannot be read (the database is away, or slow to
        // answer) leaves the parser's apiError as it is, without the headers of a count that did not happen.
        if (e instanceof ApiError) apiError = e;
      }
    }
  }
  writeRawRefusal(socket, apiError, { ...rate, [REQUEST_ID_HEADER]: requestId });
  services.metrics.unreadable(name, apiError.status);
  access.info({ reqId: requestId, method: head?.method.slice(0, 20), route: UNREADABLE_ROUTE, status: apiError.status }, 'request');
}

// CONNECT (a request to open a tunnel): Node hands it to a 'connect' listener and, without one,
// drops the connection unanswered. No host is a proxy: after the edge (agent; a key when one is
// sent, or the path's own rule for a path served here) it is answered 405 with the methods served
// on the path named, or, for any other target, the methods this host serves.
async function answerConnect(state: HostState, request: IncomingMessage, socket: Duplex) {
  const { edge, routes, series, access } = state;
  const started = performance.now();
  const requestId = requestIdOf(request.headers[REQUEST_ID_HEADER]);
  const target = request.url ?? '';
  const path = target.startsWith('/') ? target.split('?')[0]! : undefined;
  const onPath = path === undefined ? [] : routes.methodsOf(path);
  const allowed = onPath.length > 0 ? onPath : routes.servedMethods();
  let apiError = ApiError.of(refusal(405, 'method_not_allowed',
    `CONNECT is not served here (no host of this service is a proxy); ${onPath.length > 0 ? `allowed on ${path}` : 'methods this host serves'}: ${allowed.join(', ')}`,
    undefined, { allow: allowed.join(', ') }));
  let rate: Record<string, string> = {};
  try {
    rate = await edge.admitHeaders(request.headers, addressOf(socket), onPath.length > 0 ? routes.authOfPath(path!) : 'optional');
  } catch (e) {
    apiError = toApiError(e);
  }
  writeRawRefusal(socket, apiError, { ...rate, [REQUEST_ID_HEADER]: requestId });
  // Measured and logged as any request is; never routed, so under the unmatched route's label.
  series.observe(UNMATCHED_ROUTE, 'CONNECT', apiError.status, (performance.now() - started) / 1000);
  access.info({ reqId: requestId, method: 'CONNECT', route: UNMATCHED_ROUTE, status: apiError.status }, 'request');
}

/** An empty JSON body is no body (POST /signup allows one); anything else must parse. */
function readJsonBodies(app: FastifyInstance): void {
  // JSON is the only body most routes read; routes that read others add their own parser.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, null);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return done(ApiError.of(refusals.invalidRequest(400, 'The body is not valid JSON.')), undefined);
    }
    const fault = bodyFault(value);
    if (fault) {
      const { status, message } = describeBodyFault(fault);
      return done(ApiError.of(refusals.invalidRequest(status, message)), undefined);
    }
    done(null, value);
  });
}

/** What is thrown while answering, and a path no route serves (405 with Allow, or 404), answered in the envelope. */
function answerFaults(app: FastifyInstance, state: HostState): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    // The client is gone (its body aborted, or the parser refused the rest of it and answered on the
    // connection): nobody is left to answer, and a reset from the client is not the database's.
    const socket = request.raw.socket;
    if ((socket.destroyed || !socket.writable) && (error as { code?: string }).code === 'ECONNRESET') {
      request.log.debug({ reqId: request.id, reason: (error as Error).message }, 'request abandoned by the client');
      return;
    }
    const apiError = toApiError(error);
    // An unreachable database is logged once where the connection is lost; each refused request
    // is a warning without the stack, so an outage does not bury the log.
    if (apiError.status === 503) request.log.warn({ reqId: request.id, code: apiError.code, reason: (error as Error).message }, 'request refused: service unavailable');
    else if (apiError.status >= 500) request.log.error({ err: error, reqId: request.id }, 'request failed');
    void sendError(reply, apiError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((m) => state.routes.lookup.find(m, path) !== null);
    if (allowed.length > 0) {
      return sendError(reply, ApiError.of(refusal(405, 'method_not_allowed',
        `${request.method} is not served on ${path}; allowed: ${allowed.join(', ')}`, undefined,
        { allow: allowed.join(', ') })));
    }
    return sendError(reply, ApiError.of(refusals.notFound(`No route ${request.method} ${path}`)));
  });
}

/**
 * The edge's hooks: every request admitted (agent, key, rate limit) and checked before its route,
 * refused while the host closes, and measured, logged and its span ended once answered.
 */
function edgeHooks(app: FastifyInstance, state: HostState): void {
  app.addHook('onRequest', async (request, reply) => {
    // On every answer, the edge's refusals included (they are written onto this reply).
    reply.header(REQUEST_ID_HEADER, request.id);
    // A verb being retired says so on every answer (RFC 9745), refusals included.
    if (request.routeOptions.config?.deprecated) reply.header('deprecation', DEPRECATION);
    const crossOrigin = state.name !== 'mcp';
    if (crossOrigin) allowOrigin(request, reply);
    if (crossOrigin && isPreflight(request)) {
      // A browser sends no key with a preflight: counted against the client address, as any keyless request.
      await state.inFlight.track(reply, state.edge.admit(request, reply, 'none'));
      if (answerPreflight(request, reply, state.routes.methodsOf(request.url.split('?')[0] ?? '/'))) return reply;
    } else {
      await state.inFlight.track(reply, state.edge.admit(request, reply, authModeOf(request, state.routes.publicPaths, state.defaultAuth)));
    }
    if (state.closing) {
      reply.header('connection', 'close');
      throw ApiError.of(refusals.shuttingDown());
    }
    // RFC 9112 3.2: an HTTP/1.1 request carries exactly one Host (Node would keep the first of several).
    if (request.raw.httpVersion === '1.1' && hostLines(request.raw.rawHeaders) !== 1) {
      reply.header('connection', 'close');
      throw ApiError.of(refusals.invalidRequest(400, 'An HTTP/1.1 request must carry exactly one Host header, naming the host it is sent to.'));
    }
    const expectation = request.headers.expect;
    if (expectation !== undefined && expectation.trim().toLowerCase() !== '100-continue') {
      throw ApiError.of(refusal(417, 'client_error', 'The only expectation this service meets is Expect: 100-continue.'));
    }
    // PostgreSQL text cannot hold U+0000 and no id or query value needs it.
    if (/%00/.test(request.url)) {
      throw ApiError.of(refusals.invalidRequest(400, 'The path or query holds a NUL character (%00), which no id or value may contain.'));
    }
  });

  app.addHook('preClose', async () => { state.closing = true; });

  // The request's measure and its access line, once its answer is written: route templates only
  // (bounded label values), the account when a key named one (never the key itself).
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    state.series.observe(route, request.method, status, ms / 1000);
    if (state.access.isLevelEnabled('info')) state.access.info({ reqId: request.id, method: request.method, route, status, duration_ms: Math.round(ms * 100) / 100, account: request.caller?.accountId }, 'request');
    const span = (request.raw as RequestWithWork)[WORK]?.span;
    if (span?.isRecording()) {
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({ 'http.request.method': request.method, 'http.route': route, 'http.response.status_code': status, 'catrisk.host': state.name, 'catrisk.request_id': request.id });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}

/** Answers the requests in flight that have not begun their answer with the refusal (see FastifyInstance.refuseInFlight). */
async function refuseInFlight(state: HostState, refusal: ApiError): Promise<number> {
  const waiting = [...state.inFlight.replies].filter((reply) => !(reply.raw.headersSent || reply.raw.writableEnded || reply.raw.destroyed));
  await Promise.all(waiting.map(async (reply) => {
    // A request still in the edge's check (its key being looked up) has no RateLimit headers yet:
    // the answer is counted against the client address, unless the counter does not answer at once.
    let rate = rateHeadersOfReply(reply);
    if (rate.ratelimit === undefined) {
      rate = await within(250, state.edge.countAddress(reply.request.ip).catch((e: unknown) => (e instanceof ApiError ? rateHeadersOf(e) : {})), {});
    }
    if (reply.raw.headersSent || reply.raw.writableEnded || reply.raw.destroyed) return;
    // Written by hand: the route's own hooks (an idempotency key's release) may wait on what is
    // stalled. The route's later answer, if it comes, finds the reply taken.
    reply.hijack();
    writeRefusal(reply.raw, refusal, { ...rate, connection: 'close' });
  }));
  return waiting.length;
}

export function sendError(reply: FastifyReply, error: ApiError) {
  for (const [header, value] of Object.entries(error.headers)) reply.header(header, value);
  return reply.code(error.status).type('application/json; charset=utf-8').send(canonicalJson(envelope(error)));
}

/** Anything thrown while answering, as the refusal the envelope is written from. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) return ApiError.of(refusals.databaseUnavailable());
  const e = error as { statusCode?: number; code?: string; message?: string };
  const status = typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500;
  if (status >= 500) return ApiError.of(refusal(500, 'internal_error', 'The service failed for a reason that is not the request\'s fault.'));
  switch (e.code) {
    case 'FST_ERR_BAD_URL':
      return ApiError.of(refusals.invalidRequest(400, 'The path is not valid percent-encoding (a % must be followed by two hex digits forming UTF-8).'));
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return ApiError.of(refusal(414, 'client_error', `A path segment is longer than ${MAX_PARAM_LENGTH} characters; no id is that long.`));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return ApiError.of(refusal(415, 'unsupported_media_type', 'This route does not read that content type; send application/json.'));
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return ApiError.of(refusals.invalidRequest(400, 'The body is not valid JSON.'));
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return ApiError.of(refusals.invalidRequest(400, 'The body is shorter or longer than its Content-Length.'));
  }
  if (status === 400) return ApiError.of(refusals.invalidRequest(400, 'The request could not be read: ' + (e.message ?? 'malformed')));
  if (status === 413) return ApiError.of(refusal(413, 'payload_too_large', 'The body is larger than this route accepts.'));
  if (status === 415) return ApiError.of(refusal(415, 'unsupported_media_type', 'This route does not read that content type; send application/json.'));
  return ApiError.of(refusal(status, genericCode(status), e.message || 'The request was refused.'));
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

const ANONYMOUS_AGENT = 'Send a descriptive User-Agent naming your application (for example "acme-pricing/1.2"); anonymous default-library agents are refused.';

/**
 * The edge every request passes before its route, in SPEC order: user agent, then key, then the
 * rate limit. Every answer, refusals included, carries the RateLimit headers of the bucket it was
 * counted in: the key's once a key is known, otherwise the client address's.
 */
class Edge {
  private readonly refusedAgents: ReadonlySet<string>;
  /** Addresses over the wrong-key limit, until their window ends: refused with no key lookup. */
  private readonly blocked = new Map<string, { until: number; decision: RateDecision }>();

  /** Agents already read: a client sends the same User-Agent on every request. */
  private readonly agents = new Map<string, boolean>();

  constructor(private readonly services: Services) {
    this.refusedAgents = new Set(services.config.refusedAgents);
  }

  private isAnonymous(agent: string | undefined): boolean {
    if (agent === undefined) return isAnonymousAgent(agent, this.refusedAgents);
    let anonymous = this.agents.get(agent);
    if (anonymous === undefined) {
      anonymous = isAnonymousAgent(agent, this.refusedAgents);
      if (this.agents.size >= 1000) this.agents.clear();
      this.agents.set(agent, anonymous);
    }
    return anonymous;
  }

  /** Runs the edge for a routed request; sets request.caller and the RateLimit headers. */
  async admit(request: FastifyRequest, reply: FastifyReply, auth: AuthMode): Promise<void> {
    try {
      const { caller, rate } = await this.check(request.headers, request.ip, auth, request.raw.socket.remoteAddress);
      if (caller) request.caller = caller;
      reply.headers(rate);
    } catch (error) {
      if (error instanceof ApiError) reply.headers(rateHeadersOf(error));
      throw error;
    }
  }

  /** The edge for a request Node could not route; answers the RateLimit headers to send. */
  async admitHeaders(headers: IncomingHttpHeaders, ip: string, auth: AuthMode): Promise<Record<string, string>> {
    return (await this.check(headers, ip, auth, ip)).rate;
  }

  /** Counts an answer that no request could be read for against the client address; throws 429 over the limit. */
  async countAddress(ip: string): Promise<Record<string, string>> {
    const { config, rate } = this.services;
    const decision = await rate.hit(`addr:${ip}`, config.rateLimit.address, Date.now());
    if (!decision.allowed) throw overLimit(decision, 'this client address');
    return rateHeaders(decision);
  }

  /** The caller a credential names, counted against its key's rate limit. */
  async callerOf(authorization: string | undefined, ip: string): Promise<Caller> {
    const now = Date.now();
    const caller = await this.authenticate(authorization, ip, now);
    const { config, rate } = this.services;
    const decision = await rate.hit(`key:${caller.keyId}`, config.rateLimit.key, now);
    if (!decision.allowed) throw overLimit(decision, 'this key');
    return caller;
  }

  private async check(headers: IncomingHttpHeaders, ip: string, auth: AuthMode, peer: string | undefined): Promise<{ caller?: Caller; rate: Record<string, string> }> {
    const { config, rate } = this.services;
    const now = Date.now();
    const byAddress = async () => rate.hit(`addr:${ip}`, config.rateLimit.address, now);
    if (this.isAnonymous(headers['user-agent'])) {
      throw withRate(ApiError.of(refusal(403, 'forbidden', ANONYMOUS_AGENT)), await byAddress());
    }
    if (auth === 'internal') {
      // Not an API key: the internal credential, from this machine, not forwarded. A refusal is
      // counted against the client address, as a wrong key is.
      try {
        admitInternal(headers, peer, config.exchange.internalToken);
      } catch (error) {
        if (error instanceof ApiError) throw withRate(error, await byAddress());
        throw error;
      }
    }
    let caller: Caller | undefined;
    if (auth === 'key' || (auth === 'optional' && headers.authorization !== undefined)) {
      try {
        // A known key and the in-memory counter answer at once: no await, so no turn of the queue.
        const found = this.authenticate(headers.authorization, ip, now);
        caller = found instanceof Promise ? await found : found;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) throw withRate(error, await byAddress());
        throw error;
      }
    }
    if (!caller) {
      const decision = await byAddress();
      if (!decision.allowed) throw overLimit(decision, 'this client address');
      return { rate: rateHeaders(decision) };
    }
    const hit = rate.hit(`key:${caller.keyId}`, config.rateLimit.key, now);
    const decision = hit instanceof Promise ? await hit : hit;
    if (!decision.allowed) throw overLimit(decision, 'this key');
    return { caller, rate: rateHeaders(decision) };
  }

  /** The caller of a credential: at once when its key is known, else after the key's lookup. Throws the refusal. */
  private authenticate(header: string | undefined, ip: string, now: number): Caller | Promise<Caller> {
    if (header === undefined) throw ApiError.of(refusals.unauthenticated('No Authorization header; send Authorization: Bearer <API key> (POST /signup issues one).'));
    let secret: string;
    // "Bearer <key>" as clients send it, read without the general pattern below (same reading).
    if (header.startsWith('Bearer ')) secret = header.slice(7).trim();
    else {
      const match = /^(\S+)(?:\s+(.*))?$/.exec(header.trim());
      if (!match || match[1]!.toLowerCase() !== 'bearer') {
        throw ApiError.of(refusals.unauthenticated('The Authorization scheme is not read here; the only scheme is Bearer.'));
      }
      secret = (match[2] ?? '').trim();
    }
    if (secret === '') throw ApiError.of(refusals.unauthenticated('The Bearer scheme arrived with an empty key (an unset shell variable?).'));
    const digest = secretDigest(secret);
    const cached = keyCache.get(digest);
    if (cached) return cached;
    return this.lookUp(digest, ip, now);
  }

  private async lookUp(digest: string, ip: string, now: number): Promise<Caller> {
    const block = this.blocked.get(ip);
    if (block && block.until > now) throw wrongKeyFlood({ ...block.decision, resetSeconds: Math.max(1, Math.ceil((block.until - now) / 1000)) });
    const row = await this.services.accounts.keyByDigest(digest);
    if (!row) {
      const { config, rate } = this.services;
      const decision = await rate.hit(`wrong-key:${ip}`, config.rateLimit.invalidKey, now);
      if (!decision.allowed) {
        if (this.blocked.size > 10_000) this.blocked.clear();
        this.blocked.set(ip, { until: now + decision.resetSeconds * 1000, decision });
        throw wrongKeyFlood(decision);
      }
      throw ApiError.of(refusals.unauthenticated('This key is not held by this environment (altered on the way, or from another environment).'));
    }
    const caller = { accountId: row.account_id, keyId: row.key_id };
    // Keys never expire and are never reassigned, so a digest's owner can be remembered.
    if (keyCache.size > 50_000) keyCache.clear();
    keyCache.set(digest, caller);
    return caller;
  }
}

function overLimit(decision: RateDecision, scope: string): ApiError {
  return withRate(ApiError.of(refusal(429, 'rate_limited',
    `Rate limit of ${decision.limit} requests per ${decision.windowSeconds} s reached for ${scope}; retry in ${decision.resetSeconds} s.`,
    undefined, { 'retry-after': String(decision.resetSeconds) })), decision);
}

function wrongKeyFlood(d: RateDecision): ApiError {
  return withRate(ApiError.of(refusal(429, 'rate_limited',
    `${d.limit} wrong keys per ${d.windowSeconds} s reached for this client address; keys from it are not checked for ${d.resetSeconds} s.`,
    undefined, { 'retry-after': String(d.resetSeconds) })), { ...d, remaining: 0 });
}

function rateHeaders(d: RateDecision): Record<string, string> {
  // draft-ietf-httpapi-ratelimit-headers: a named policy, its quota (q) and window (w) in
  // RateLimit-Policy; the remaining quota (r) and seconds to reset (t) in RateLimit.
  return {
    'ratelimit-policy': `"default";q=${d.limit};w=${d.windowSeconds}`,
    ratelimit: `"default";r=${d.remaining};t=${d.resetSeconds}`,
  };
}

/** The refusal carrying the RateLimit headers of the bucket it was counted in. */
function withRate(error: ApiError, d: RateDecision): ApiError {
  return ApiError.of(refusal(error.status, error.code, error.message, error.details, { ...error.headers, ...rateHeaders(d) }));
}

/** How long an answer the parser refused waits on the rate counter before it is written without its headers. */
const COUNT_WAIT_MS = 1_000;

/** The promise's value, or `otherwise` once `ms` have passed (a rejection is passed on). */
function within<T>(ms: number, promise: Promise<T>, otherwise: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => { timer = setTimeout(() => resolve(otherwise), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The RateLimit headers the edge set on a reply (none when it did not get that far). */
function rateHeadersOfReply(reply: FastifyReply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['ratelimit-policy', 'ratelimit']) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** How many Host header lines a request carries. */
function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host') count += 1;
  return count;
}

/** The client address of a connection. */
function addressOf(socket: Duplex): string {
  return (socket as { remoteAddress?: string }).remoteAddress ?? '';
}

function rateHeadersOf(error: ApiError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['ratelimit-policy', 'ratelimit']) if (error.headers[name] !== undefined) out[name] = error.headers[name]!;
  return out;
}

// The Idempotency-Key header at the edge, for every route whose operation declares it
// (operation({ idempotent: true }) in http/schemas/): one mechanism, no code in the routes, and
// hooks on those routes only.
// After the route's schema has admitted the request, the key is taken for it or its stored answer
// is given back (app/idempotency.ts says when); the answer of the request that took it is stored
// as it is sent: status, the headers that matter, and the body's bytes.
import { createHash, type Hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { releaseKey, settleKey, takeKey } from '../app/idempotency.js';
import type { AppDeps } from '../app/deps.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { answer } from './answer.js';
import { boundaryOf, parseMultipart } from './multipart.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads Idempotency-Key (set by operation({ idempotent: true })). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key this request took, until its answer is stored or the key given back. */
    heldKey?: HeldKey;
  }
}

interface HeldKey {
  accountId: string;
  key: string;
  settled: boolean;
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** A given-back answer says so; the first answer does not carry it. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** The headers of a first answer given back with it; RateLimit headers are the repeat's own. */
const KEPT_HEADERS = ['content-type', 'location', 'etag', 'retry-after'];

type Deps = Pick<AppDeps, 'idempotency' | 'now' | 'config'>;

/**
 * Gives every route that declares `idempotent` the three hooks of the mechanism; other routes get
 * none, so reads and unkeyed writes pay nothing for it. Installed before the host's routes.
 */
export function idempotencyHooks(app: FastifyInstance, deps: Deps) {
  const hooks = {
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      const key = request.headers[IDEMPOTENCY_HEADER];
      if (typeof key !== 'string' || !request.caller) return;
      const { accountId } = request.caller;
      const turn = answer(await takeKey(deps, { accountId, key, fingerprint: fingerprintOf(request) }));
      if (turn.kind === 'replay') {
        const { status, headers, body } = turn.answer;
        return reply.code(status).headers({ ...headers, [REPLAYED_HEADER]: 'true' }).send(body);
      }
      request.heldKey = { accountId, key, settled: false };
    },

    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const held = request.heldKey;
      if (!held || held.settled) return payload;
      held.settled = true;
      try {
        if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
          const headers: Record<string, string> = {};
          for (const name of KEPT_HEADERS) {
            const value = reply.getHeader(name);
            if (value !== undefined) headers[name] = String(value);
          }
          await settleKey(deps, { accountId: held.accountId, key: held.key, answer: { status: reply.statusCode, headers, body: Buffer.from(payload) } });
        } else {
          // A streamed answer is not kept: the key is given back.
          await releaseKey(deps, held);
        }
      } catch (error) {
        // The effect has happened and its answer goes out; the key stays held until its claim lapses.
        request.log.error({ err: error, reqId: request.id }, 'Idempotency-Key answer not stored');
      }
      return payload;
    },

    // A request that ended before its answer was sent (a lost connection) gives its key back.
    onResponse: async (request: FastifyRequest) => {
      const held = request.heldKey;
      if (!held || held.settled) return;
      held.settled = true;
      await releaseKey(deps, held).catch(() => {});
    },
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    for (const [name, hook] of Object.entries(hooks) as Array<[keyof typeof hooks, unknown]>) {
      const own = route[name] as unknown;
      (route as unknown as Record<string, unknown>)[name] = own === undefined ? [hook] : [...(Array.isArray(own) ? own : [own]), hook];
    }
  });
}

/**
 * What makes a request the same request: its method, its path with its query, and its body. A
 * JSON body counts by its canonical form (member order and spacing do not make another request);
 * a form by its parts' names, file names, types and bytes (each client picks its own boundary, so
 * two sends of one form never share their framing).
 */
function fingerprintOf(request: FastifyRequest): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  const body = request.body;
  if (Buffer.isBuffer(body)) formDigest(hash, body, request.headers['content-type']);
  else hash.update(`json\n${canonicalJson(body ?? null)}`);
  return hash.digest('hex');
}

function formDigest(hash: Hash, body: Buffer, contentType: string | undefined) {
  const boundary = boundaryOf(contentType);
  // An unreadable form is refused by its route, which keeps nothing; its bytes stand for it.
  const parts = boundary === undefined ? undefined : parseMultipart(body, boundary);
  if (parts?.ok) {
    for (const part of parts.value) {
      const head = JSON.stringify([part.name, part.filename ?? null, part.contentType ?? null]);
      hash.update(`part ${head} ${part.data.length}\n`).update(part.data);
    }
    return;
  }
  hash.update(`bytes ${body.length}\n`).update(body);
}

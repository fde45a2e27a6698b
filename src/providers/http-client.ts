// The one outbound HTTP client of the service, over undici: every call to a service outside
// (geocoders, the exposure-coding model, and later webhooks and the exchange) goes through it.
// It sends our User-Agent, gives up after a timeout, reads at most a capped number of bytes, spaces
// the requests of one provider (one at a time, a second apart by default, as public geocoders'
// usage policies ask),
// and takes an undici Dispatcher for whatever a caller must decide at connect time.
// It never logs: a header it sends may carry a key. Every call passes on the W3C trace of the
// request or job it is made for (traceparent, tracestate), so a provider's logs join ours.
import type { Dispatcher } from 'undici';
import { outboundTraceHeaders } from '../telemetry/work.js';
import { UNSAFE_ADDRESS } from './public-address.js';

export type OutboundFailure = 'timeout' | 'unreachable' | 'unsafe_address' | 'status' | 'too_large' | 'malformed';

/** A call that gave no usable answer: the provider was slow, unreachable, refused or spoke nonsense. */
export class OutboundError extends Error {
  constructor(readonly failure: OutboundFailure, message: string, readonly status?: number) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundOptions {
  /** Names the provider in messages. */
  readonly name: string;
  readonly userAgent: string;
  /** Whole call, connection to last byte. */
  readonly timeoutMs: number;
  /** Largest answer read; a larger one is refused. */
  readonly maxBytes: number;
  /** Least time between the starts of two requests to this provider (0: no spacing). */
  readonly minIntervalMs: number;
  /** Connection policy (address checks, proxies, test pools); undici's global dispatcher otherwise. */
  readonly dispatcher?: Dispatcher;
}

export interface OutboundAnswer {
  readonly status: number;
  readonly body: Buffer;
}

export class OutboundClient {
  private nextStart = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly options: OutboundOptions) {}

  /**
   * Waits for this provider's turn: one request at a time, in call order, each starting at least
   * minIntervalMs after the previous one ended, so the provider never sees two closer than that.
   * Answers the release to call when the request has ended.
   */
  private async turn(): Promise<() => void> {
    const spacing = this.options.minIntervalMs;
    if (spacing <= 0) return () => {};
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((resolve) => {
      release = () => {
        this.nextStart = Date.now() + spacing;
        resolve();
      };
    });
    await previous;
    const wait = this.nextStart - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return release;
  }

  /** Sends one request; answers any status with the body read (capped), or throws OutboundError. */
  async send(url: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = { method: 'GET' }): Promise<OutboundAnswer> {
    const { name, timeoutMs, maxBytes, userAgent, dispatcher } = this.options;
    const release = await this.turn();
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      // undici is loaded by the first outbound request, not by every process that serves the API.
      const { request } = await import('undici');
      const response = await request(url, {
        method: init.method,
        headers: { 'user-agent': userAgent, accept: 'application/json', ...outboundTraceHeaders(), ...init.headers },
        ...(init.body !== undefined ? { body: init.body } : {}),
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(dispatcher ? { dispatcher } : {}),
      });
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        response.body.destroy();
        throw new OutboundError('too_large', `${name} answered ${declared} bytes, more than the ${maxBytes} read`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          response.body.destroy();
          throw new OutboundError('too_large', `${name} answered more than the ${maxBytes} bytes read`);
        }
        chunks.push(chunk as Buffer);
      }
      return { status: response.statusCode, body: Buffer.concat(chunks) };
    } catch (error) {
      if (error instanceof OutboundError) throw error;
      if (signal.aborted) throw new OutboundError('timeout', `${name} did not answer within ${timeoutMs} ms`);
      const code = (error as { code?: string }).code ?? '';
      if (code === UNSAFE_ADDRESS) throw new OutboundError('unsafe_address', `${name} was not called: ${(error as Error).message}`);
      if (/TIMEOUT/i.test(code)) throw new OutboundError('timeout', `${name} did not answer within ${timeoutMs} ms`);
      throw new OutboundError('unreachable', `${name} could not be reached (${code || (error as Error).name})`);
    } finally {
      release();
    }
  }

  /** Sends a request and reads a 2xx JSON answer; any other status or body is an OutboundError. */
  async json(url: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = { method: 'GET' }): Promise<unknown> {
    const answer = await this.send(url, init);
    if (answer.status < 200 || answer.status > 299) {
      throw new OutboundError('status', `${this.options.name} answered HTTP ${answer.status}`, answer.status);
    }
    try {
      return JSON.parse(answer.body.toString('utf8'));
    } catch {
      throw new OutboundError('malformed', `${this.options.name} answered a body that is not JSON`);
    }
  }
}

// The piece of work under way (a request, or a job), carried with the asynchronous context so
// that what it does far from the edge still knows it: a log line names its request id, an
// outbound call passes its trace on, and a job it queues keeps both.
import { AsyncLocalStorage } from 'node:async_hooks';
import { context, trace, ROOT_CONTEXT, type Span } from '@opentelemetry/api';
import { traceHeadersOf } from './trace-context.js';

export interface Work {
  /** The request's id, or that of the request that queued the job; undefined for work no request asked for (a feed rescan's deliveries). */
  readonly requestId: string | undefined;
  /** The request's or the job's span (a no-op one without an OpenTelemetry SDK). */
  readonly span: Span;
}

/** Where a job came from, kept on its row: the request id and trace of the work that queued it. */
export interface JobOrigin {
  readonly requestId: string | null;
  readonly traceparent: string | null;
  readonly tracestate: string | null;
}

const current = new AsyncLocalStorage<Work>();

/** Runs `fn` as `work`; the span is also made OpenTelemetry's active span when an SDK records it. */
export function runAs<T>(work: Work, fn: () => T): T {
  if (!work.span.isRecording()) return current.run(work, fn);
  return current.run(work, () => context.with(trace.setSpan(ROOT_CONTEXT, work.span), fn));
}

/** Runs `fn` outside any work: for timers that must not inherit the request that set them (the worker's polls). */
export function apartFromWork<T>(fn: () => T): T {
  return current.exit(fn);
}

export function currentWork(): Work | undefined {
  return current.getStore();
}

/** The trace headers an outbound call made now carries, if the work under way has a trace. */
export function outboundTraceHeaders(): { traceparent: string; tracestate?: string } | undefined {
  const work = current.getStore();
  return work ? traceHeadersOf(work.span) : undefined;
}

/** The origin a job queued now keeps; undefined outside any work. */
export function originOfWork(): JobOrigin | undefined {
  const work = current.getStore();
  if (!work) return undefined;
  const trace = traceHeadersOf(work.span);
  return { requestId: work.requestId ?? null, traceparent: trace?.traceparent ?? null, tracestate: trace?.tracestate ?? null };
}

/** pino's mixin: every line logged during a piece of work names its request id (a new object each time: pino merges into it). */
export function logFieldsOfWork(): { reqId?: string } {
  const requestId = current.getStore()?.requestId;
  return requestId === undefined ? {} : { reqId: requestId };
}

// W3C Trace Context and OpenTelemetry spans. Spans are made through @opentelemetry/api only: they
// are no-ops until the operator installs an SDK (a `node --import` of their own setup file), and
// then every request and job is a span, a child of the traceparent it arrived with.
// Without an SDK a span carries the traceparent it was given, so outbound calls pass it on as
// received; with one, they name the span of the request or job that makes them.
import { createTraceState, isSpanContextValid, ROOT_CONTEXT, trace, type Span, type SpanContext, type SpanKind } from '@opentelemetry/api';

// version-traceid-parentid-flags, lower-case hex; a later version may append fields after a '-'.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
/** tracestate is at most 32 members of at most 256 characters each (W3C Trace Context, 3.3). */
const MAX_TRACESTATE = 32 * 257;

/**
 * The parent a traceparent header names, or undefined when it is absent or malformed (version ff,
 * version 00 with trailing data, an all-zero id, upper-case hex): a malformed one is ignored, as
 * W3C Trace Context asks. tracestate is read only beside a valid traceparent.
 */
export function parseTraceparent(header: unknown, tracestate?: unknown): SpanContext | undefined {
  if (typeof header !== 'string') return undefined;
  const match = TRACEPARENT.exec(header);
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  const parent: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
  if (typeof tracestate === 'string' && tracestate !== '' && tracestate.length <= MAX_TRACESTATE) {
    parent.traceState = createTraceState(tracestate);
  }
  return parent;
}

/** The headers that pass a span's trace on: traceparent (version 00), and tracestate when it has members. */
export function traceHeadersOf(span: Span): { traceparent: string; tracestate?: string } | undefined {
  const context = span.spanContext();
  if (!isSpanContextValid(context)) return undefined;
  const traceparent = `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  const state = context.traceState?.serialize();
  return state ? { traceparent, tracestate: state } : { traceparent };
}

const tracer = trace.getTracer('catrisk');

/** A span for a request or a job: a child of `parent` when one arrived, else the root of a new trace. */
export function startSpan(name: string, kind: SpanKind, parent: SpanContext | undefined): Span {
  return tracer.startSpan(name, { kind }, parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT);
}

// W3C traceparent read as the recommendation says (a malformed one is ignored), passed on as
// received when no OpenTelemetry SDK records spans; the work under way names its request id on
// every line the service's logger writes, and lends its origin to a job queued meanwhile.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { SpanKind } from '@opentelemetry/api';
import { parseTraceparent, startSpan, traceHeadersOf } from '../../src/telemetry/trace-context.js';
import { apartFromWork, currentWork, originOfWork, outboundTraceHeaders, runAs } from '../../src/telemetry/work.js';
import { serviceLogger } from '../../src/telemetry/logger.js';
import { isWellFormedRequestId, requestIdOf } from '../../src/telemetry/request-ids.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

test('traceparent: version 00 exactly, later versions by their first four fields, anything else ignored', () => {
  assert.deepEqual(parseTraceparent(`00-${TRACE}-${PARENT}-01`), { traceId: TRACE, spanId: PARENT, traceFlags: 1, isRemote: true });
  assert.equal(parseTraceparent(`00-${TRACE}-${PARENT}-00`)?.traceFlags, 0);
  assert.equal(parseTraceparent(`cc-${TRACE}-${PARENT}-01-what-comes-later`)?.traceId, TRACE, 'a later version is read by its first fields');
  for (const bad of [
    undefined, '', `00-${TRACE}-${PARENT}-01-extra`, `ff-${TRACE}-${PARENT}-01`, `00-${'0'.repeat(32)}-${PARENT}-01`,
    `00-${TRACE}-${'0'.repeat(16)}-01`, `00-${TRACE.toUpperCase()}-${PARENT}-01`, `00-${TRACE}-${PARENT}-1`, `00-${TRACE}-${PARENT}`,
    ` 00-${TRACE}-${PARENT}-01`, `00_${TRACE}_${PARENT}_01`, [`00-${TRACE}-${PARENT}-01`],
  ]) assert.equal(parseTraceparent(bad), undefined, JSON.stringify(bad));
  assert.equal(parseTraceparent(`00-${TRACE}-${PARENT}-01`, 'acme=7,other=x')?.traceState?.serialize(), 'acme=7,other=x');
  assert.equal(parseTraceparent(`00-${TRACE}-${PARENT}-01`, 'x'.repeat(10_000))?.traceState, undefined, 'an oversized tracestate is dropped');
});

test('without an SDK a span carries the trace it was given, and none when none arrived', () => {
  const given = startSpan('GET /x', SpanKind.SERVER, parseTraceparent(`00-${TRACE}-${PARENT}-01`, 'acme=7'));
  assert.equal(given.isRecording(), false);
  assert.deepEqual(traceHeadersOf(given), { traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: 'acme=7' });
  assert.equal(traceHeadersOf(startSpan('GET /x', SpanKind.SERVER, undefined)), undefined);
});

test('the work under way: its request id on every log line, its trace on outbound calls, its origin on a queued job', async () => {
  const lines: Array<Record<string, unknown>> = [];
  const log = serviceLogger('info', new Writable({ write(chunk, _e, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
  const span = startSpan('POST /ingest', SpanKind.SERVER, parseTraceparent(`00-${TRACE}-${PARENT}-01`));
  await runAs({ requestId: 'req-1', span }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    log.info({ deep: true }, 'logged far from the edge');
    log.child({ part: 'worker' }).warn('a child logger too');
    assert.equal(currentWork()?.requestId, 'req-1');
    assert.deepEqual(outboundTraceHeaders(), { traceparent: `00-${TRACE}-${PARENT}-01` });
    assert.deepEqual(originOfWork(), { requestId: 'req-1', traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: null });
    apartFromWork(() => log.info('set apart'));
  });
  log.info('outside any work');
  assert.deepEqual(lines.map((l) => [l.msg, l.reqId]), [
    ['logged far from the edge', 'req-1'], ['a child logger too', 'req-1'], ['set apart', undefined], ['outside any work', undefined],
  ]);
  assert.equal(originOfWork(), undefined);
  assert.equal(outboundTraceHeaders(), undefined);
  // Work no request asked for has no id, and no trace unless it was given one.
  await runAs({ requestId: undefined, span: startSpan('job x', SpanKind.CONSUMER, undefined) }, async () => {
    assert.deepEqual(originOfWork(), { requestId: null, traceparent: null, tracestate: null });
  });
});

test('request ids: 1 to 128 of [A-Za-z0-9._:-], else a new one', () => {
  for (const ok of ['a', 'A.b_c:d-9', 'x'.repeat(128)]) assert.equal(requestIdOf(ok), ok);
  for (const bad of ['', 'x'.repeat(129), 'a b', 'a,b', 'ü', 'a/b']) {
    assert.equal(isWellFormedRequestId(bad), false, bad);
    assert.match(requestIdOf(bad), /^req_[0-9a-f]{16}[0-9a-z]{8,}$/);
  }
  assert.match(requestIdOf(['a', 'b']), /^req_/);
  assert.notEqual(requestIdOf(undefined), requestIdOf(undefined));
});

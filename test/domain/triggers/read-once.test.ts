// Terms are read once: a job reads the shape, finds the feed the terms name, checks the structure
// against that feed and window without reading the terms again, and hands the checked structure to
// the replay and to the price. The refusals are the ones reading the terms whole gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faultAnswer } from '../../../src/domain/triggers/faults.js';
import type { FeedContext } from '../../../src/domain/triggers/feed.js';
import { checkStructure, validateStructure, type ValidationContext } from '../../../src/domain/triggers/index.js';
import { runBacktest } from '../../../src/domain/backtest/artifact.js';
import { technicalPrice } from '../../../src/domain/pricing/technical-price.js';
import { ACCEPTANCE_BODIES } from '../../support/acceptance.js';
import { feedClass } from '../../../src/feeds/catalog.js';
import { latestVersion, manifestOf } from '../../support/feeds.js';
import { load, replayTerms } from '../backtest/support.js';

type Json = Record<string, any>;
const feed = (feedId: string): FeedContext => ({ feed_id: feedId, version: latestVersion(feedId), manifest: manifestOf(feedId), class: feedClass(manifestOf(feedId)) });
const sourceOf = (body: unknown): string => (body as Json).trigger.data_sources[0].feed_id;

// validateStructure is the shape read then checkStructure, so comparing the two would prove nothing:
// each context's verdict is stated here on its own, from the feeds' periods of record.
test('a structure read once is checked against its feed and window: the faults each context gives', () => {
  for (const [peril, body] of Object.entries(ACCEPTANCE_BODIES)) {
    const read = validateStructure(body);
    assert.ok(read.structure, peril);
    const f = feed(sourceOf(body));
    const faults = (context: ValidationContext) => {
      const v = checkStructure(read.structure!, context);
      return { ok: v.ok, data: v.data_faults.map((x) => x.fault), request: v.request_faults.map((x) => x.fault) };
    };
    assert.deepEqual(faults({ feed: f }), { ok: true, data: [], request: [] }, peril);
    // Every pinned record here starts after 1800: a window there is refused, never clipped.
    assert.deepEqual(faults({ feed: f, window: { from_year: 1800, to_year: 1900 } }), { ok: false, data: ['window_outside_period_of_record'], request: [] }, peril);
    assert.deepEqual(faults({ feed: f, window: { from_year: 2001, to_year: 2000 } }), { ok: false, data: [], request: ['window_invalid'] }, peril);
    assert.deepEqual(faults({ feed: null }), { ok: false, data: ['feed_not_pinned'], request: [] }, peril);
  }
});

test('the replay and the price take the checked structure; the refusals of faulty terms are unchanged', async () => {
  const body = ACCEPTANCE_BODIES.earthquake;
  const { data, feed: read, validation } = await load(body);
  assert.equal(validation.ok, true);
  const replayed = runBacktest(validation.structure!, data, read);
  assert.ok(replayed.ok);
  assert.deepEqual(replayed, replayTerms(body, data, read));
  const priced = technicalPrice({ validation, artifact: replayed.value, data, manifest: read.manifest, feed_class: read.class });
  assert.ok(priced.ok);
  assert.ok(priced.value.technical_premium.amount > 0);

  // A replay handed a feed its structure does not read is a programming error, not a refusal.
  assert.throws(() => runBacktest(validation.structure!, data, { ...read, version: 'another' }), /reads/);

  // Refusals: the window outside the record on the backtest job, a missing block on the price job.
  const outside = replayTerms(body, data, read, { from_year: 1800, to_year: 1850 });
  assert.ok(!outside.ok);
  assert.equal(outside.refusal.status, 422);
  assert.equal(outside.refusal.code, 'unbacktestable_structure');
  // The message says it in words; the details name the fault's code and path.
  assert.match(outside.refusal.message, /^the structure cannot be backtested: window 1800 to 1850 is outside usgs-comcat-m6-california's period of record \(.* years \d{4} to \d{4}\); it is refused, never clipped$/);
  assert.match(outside.refusal.details![0]!, /^window_outside_period_of_record at window: /);
  const bare = structuredClone(body) as Json;
  delete bare.financial_structure;
  assert.deepEqual(faultAnswer(validateStructure(bare), 'price'), {
    status: 422, code: 'unpriceable_object', message: 'the object cannot be priced: the financial_structure block is missing',
    details: ['block_missing at financial_structure: the financial_structure block is missing'],
  });
  assert.deepEqual(faultAnswer(validateStructure(bare), 'structure'), {
    status: 422, code: 'invalid_structure', message: 'the structure cannot be cut: the financial_structure block is missing',
    details: ['block_missing at financial_structure: the financial_structure block is missing'],
  });
});

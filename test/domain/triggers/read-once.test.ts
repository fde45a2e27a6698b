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

test('checking a structure read once gives what reading its terms whole against the feed and window gives', () => {
  for (const [peril, body] of Object.entries(ACCEPTANCE_BODIES)) {
    const read = validateStructure(body);
    assert.ok(read.structure, peril);
    const f = feed(sourceOf(body));
    const contexts: ValidationContext[] = [
      { feed: f },
      { feed: f, window: { from_year: 1800, to_year: 1900 } },
      { feed: f, window: { from_year: 2001, to_year: 2000 } },
      { feed: null },
    ];
    for (const context of contexts) {
      assert.deepEqual(checkStructure(read.structure, context), validateStructure(body, context), `${peril} ${JSON.stringify(context.window ?? null)}`);
    }
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
  assert.equal(outside.refusal.message, 'the structure cannot be backtested: window_outside_period_of_record');
  const bare = structuredClone(body) as Json;
  delete bare.financial_structure;
  assert.deepEqual(faultAnswer(validateStructure(bare), 'price'), {
    status: 422, code: 'unpriceable_object', message: 'the object cannot be priced: block_missing',
    details: ['block_missing at financial_structure: the financial_structure block is missing'],
  });
  assert.deepEqual(faultAnswer(validateStructure(bare), 'structure'), {
    status: 422, code: 'invalid_structure', message: 'the structure cannot be cut: block_missing',
    details: ['block_missing at financial_structure: the financial_structure block is missing'],
  });
});

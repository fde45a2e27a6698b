// A backtest's links added as stored answers are read: hand-made stored forms (before and after
// charts existed), an artifact's bytes and a price's backtest member.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addChartLink, artifactJsonWithChart, backtestLinks } from '../../../src/domain/backtest/links.js';
import { canonicalJson } from '../../../src/kernel/canonical-json.js';

const ID = 'bt_0123456789abcdef0123456789abcdef';

test('an artifact stored with links.self only is read with links.chart, still canonical', () => {
  const artifact = { id: ID, feed: { feed_id: 'f', links: { self: '/feeds/f' } }, links: backtestLinks(ID), years: [{ year: 2000, payout: 0 }] };
  const { chart: _chart, ...selfOnly } = artifact.links;
  const old = canonicalJson({ ...artifact, links: selfOnly });
  assert.equal(artifactJsonWithChart(old, ID), canonicalJson(artifact));
  // Already linked (or another artifact's bytes): unchanged.
  assert.equal(artifactJsonWithChart(canonicalJson(artifact), ID), canonicalJson(artifact));
  assert.equal(artifactJsonWithChart(old, 'bt_other'), old);
});

test('a backtest job result and a price\'s backtest member get links.chart; other links are left alone', () => {
  const result = { id: ID, links: { self: `/backtests/${ID}` } };
  addChartLink(result);
  assert.deepEqual(result.links, backtestLinks(ID));
  const price = { id: 'pr_x', backtest: { id: ID, links: { self: `/backtests/${ID}` } } };
  addChartLink(price.backtest);
  assert.deepEqual(price.backtest.links, backtestLinks(ID));
  const other = { id: 'str_x', links: { self: '/structures/str_x' } };
  addChartLink(other);
  assert.deepEqual(other.links, { self: '/structures/str_x' });
  for (const nothing of [null, undefined, 3, 'x', { id: ID }, { id: ID, links: null }]) addChartLink(nothing);
});

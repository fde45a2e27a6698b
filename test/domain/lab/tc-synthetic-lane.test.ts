// The synthetic lane's computation over the pinned Atlantic archive and south Florida places made up
// for this test: seeded determinism, the sample years' storm count against the historical annual rate
// (within 4 standard errors of a Poisson count), the AAL recounted from the event loss table and the
// occurrences, and the near-track budget refused naming its levers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseHurdat2 } from '../../../src/feeds/parsers/hurdat2.js';
import { parseTcCalibration } from '../../../src/feeds/parsers/climada-tables.js';
import { runTcSynthetic, syntheticSample } from '../../../src/domain/lab/lanes/tropical-cyclone/synthetic-lane.js';
import { naturalEarthLand } from '../../../src/land.js';
import { FEEDS_DIR, latestVersion } from '../../support/feeds.js';

const ATL = 'noaa-nhc-hurdat2-atlantic';
const dir = join(FEEDS_DIR, ATL, latestVersion(ATL));
const archive = parseHurdat2(readFileSync(join(dir, readdirSync(dir).find((n) => n.endsWith('.txt'))!), 'utf8'));
const TABLES = 'tc-impact-functions';
const tDir = join(FEEDS_DIR, TABLES, latestVersion(TABLES));
const calibration = parseTcCalibration(Object.fromEntries(readdirSync(tDir).filter((n) => n.endsWith('.csv')).map((n) => [n, readFileSync(join(tDir, n), 'utf8')])));
const points = [
  { lat: 25.47, lon: -80.48, value: 1_000_000 },
  { lat: 25.76, lon: -80.19, value: 5_000_000 },
  { lat: 26.14, lon: -81.79, value: 750_000 },
];
const land = naturalEarthLand();
const spec = { impact_function: 'auto' as const, hazard: { basin: 'NA' as const, years: 2_000 }, exposure: { points } };
const first = runTcSynthetic({ spec, storms: archive.storms, calibration, land, seed: 11 });
assert.ok(first.ok);
const r = first.value as any;

test('seeded: the same seed gives the same result, another seed another', () => {
  const again = runTcSynthetic({ spec, storms: archive.storms, calibration, land, seed: 11 });
  assert.ok(again.ok);
  assert.deepEqual(again.value, first.value);
  const other = runTcSynthetic({ spec, storms: archive.storms, calibration, land, seed: 12 });
  assert.ok(other.ok);
  assert.notEqual((other.value as any).metrics.average_annual_loss.mean, r.metrics.average_annual_loss.mean);
});

test("handed its admission's sample (cloned as it crosses threads), the run gives the same result as drawing the sample itself", () => {
  const sample = syntheticSample({ spec, storms: archive.storms, calibration, seed: 11 });
  assert.ok(sample.ok);
  const handed = runTcSynthetic({ spec, storms: archive.storms, calibration, land, seed: 11, sample: structuredClone(sample.value) });
  assert.ok(handed.ok);
  assert.deepEqual(handed.value, first.value);
});

test('sample years: storms per year at the historical rate (4 Poisson standard errors); AAL recounted from the event losses and occurrences', () => {
  const years = spec.hazard.years;
  const storms = r.hazard.sample_storms;
  const rate = r.hazard.annual_rate;
  // The historical rate recounted here: Atlantic storms of the seasons 1980 on, over those seasons.
  const seasons = new Set(archive.storms.map((s) => Number(s.storm_id.slice(-4))).filter((y) => y >= 1980));
  const count = archive.storms.filter((s) => Number(s.storm_id.slice(-4)) >= 1980 && s.fixes.length >= 2).length;
  assert.ok(Math.abs(rate - count / seasons.size) < 1e-12);
  assert.ok(Math.abs(storms / years - rate) <= 4 * Math.sqrt(rate / years), `${storms / years} storms per year vs ${rate}`);
  const aal = r.metrics.elt.reduce((a: number, e: any) => a + e.loss * e.occurrences, 0) / years;
  assert.ok(aal > 0);
  assert.ok(Math.abs(aal - r.metrics.average_annual_loss.mean) <= 1e-9 * aal, `${aal} vs ${r.metrics.average_annual_loss.mean}`);
  assert.equal(r.metrics.schema, 'lab-metrics/1');
  assert.equal(r.tracks.near + r.tracks.screened_far, r.tracks.occurring);
  assert.ok(r.tracks.screened_far > r.tracks.near, 'most tracks of the basin pass far from south Florida');
});

test('more near tracks than the budget: refused, naming fewer sample years and tighter exposure clusters', () => {
  const refused = runTcSynthetic({ spec, storms: archive.storms, calibration, land, seed: 11, nearTracks: 10 });
  assert.ok(!refused.ok);
  assert.deepEqual([refused.refusal.status, refused.refusal.code], [422, 'invalid_request']);
  assert.match(refused.refusal.message, /fewer sample years/);
  assert.match(refused.refusal.message, /cluster the exposure more tightly/);
});

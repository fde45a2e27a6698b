// The pack's pure parts: the exposure summary's exact sums against an independent recomputation
// (integer minor units), the ranking of the largest locations, the spread; and the gaps read from
// an object. Locations here are hand-made.
import assert from 'node:assert/strict';
import test from 'node:test';
import { exposureSummary, LARGEST_LOCATIONS } from '../../src/domain/packages/exposure-summary.js';
import { packageGaps, priceRunOf } from '../../src/domain/packages/gaps.js';
import { money, payoutSchedule, triggerWords, type Trigger } from '../../src/domain/packages/pack.js';

function location(i: number, currency: string | undefined, total: string | null, buildings?: string) {
  return {
    ref: `R${i}`, address: { city: `Ville ${i}`, country: i % 3 === 0 ? 'FR' : i % 3 === 1 ? 'DE' : undefined },
    latitude: i % 5 === 0 ? null : 40 + i / 100, longitude: i % 5 === 0 ? null : -3 + i / 50,
    occupancy: { code: i % 2 === 0 ? 1050 : null, text: 'x' }, construction: { code: null, text: null }, year_built: i % 4 === 0 ? 1990 : null,
    values: { ...(buildings ? { buildings } : {}), total }, ...(currency ? { currency } : {}),
  };
}

test('the exposure summary sums each currency exactly and ranks the largest locations', () => {
  const locations = Array.from({ length: 257 }, (_, i) => {
    const currency = i % 7 === 0 ? 'JPY' : i % 11 === 0 ? undefined : 'EUR';
    const cents = (i * 7919) % 100_000_000 + 1;
    const total = currency === 'JPY' ? String(cents) : i % 13 === 0 ? null : `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    return location(i, currency, total, total ?? undefined);
  });
  const summary = exposureSummary({ exposure: { locations, values: { total: '0' }, currency: 'EUR', source_fidelity: { unmapped_columns: [], guessed_units: [], ambiguous_rows: [{ row: 3, reason: 'r' }] } }, provenance: { source_files: [{ name: 'a.csv', sha256: 'f'.repeat(64), media_type: 'text/csv' }] } });
  // Recomputed independently: integers of minor units per currency (a row without currency is the object's EUR).
  const expected = new Map<string, { n: number; minor: number }>();
  for (const l of locations) {
    const c = l.currency ?? 'EUR';
    const e = expected.get(c) ?? { n: 0, minor: 0 };
    e.n += 1;
    if (l.values.total !== null) e.minor += c === 'JPY' ? Number(l.values.total) : Math.round(Number(l.values.total) * 100);
    expected.set(c, e);
  }
  assert.deepEqual(summary.totals.map((t) => [t.currency, t.locations, t.total]), [...expected.entries()].sort().map(([c, e]) => [c, e.n,
    c === 'JPY' ? String(e.minor) : `${Math.floor(e.minor / 100)}.${String(e.minor % 100).padStart(2, '0')}`]));
  assert.equal(summary.counts.locations, 257);
  assert.equal(summary.counts.without_coordinates, locations.filter((l) => l.latitude === null).length);
  assert.equal(summary.counts.with_total_value, locations.filter((l) => l.values.total !== null).length);
  // Largest: ranked in the object's currency only (EUR: the rows saying so and the rows saying none).
  assert.equal(summary.largest_locations_currency, 'EUR');
  const ranked = locations.filter((l) => l.values.total !== null && (l.currency ?? 'EUR') === 'EUR').map((l, i) => ({ l, i, v: Number(l.values.total) }))
    .sort((a, b) => b.v - a.v || a.i - b.i).slice(0, LARGEST_LOCATIONS);
  assert.deepEqual(summary.largest_locations.map((l) => l.ref), ranked.map((r) => r.l.ref));
  const located = locations.filter((l) => l.latitude !== null);
  assert.deepEqual(summary.geographic_spread.bounding_box, {
    min_latitude: Math.min(...located.map((l) => l.latitude!)), max_latitude: Math.max(...located.map((l) => l.latitude!)),
    min_longitude: Math.min(...located.map((l) => l.longitude!)), max_longitude: Math.max(...located.map((l) => l.longitude!)),
  });
  assert.deepEqual(summary.geographic_spread.countries.map((c) => c.country), ['DE', 'FR']);
  assert.equal(summary.geographic_spread.locations_without_country, locations.filter((l) => !l.address.country).length);
  assert.equal(summary.source_fidelity.ambiguous_rows, 1);
});

test('the gaps name the price run and each slip block, in the slip\'s order', () => {
  assert.deepEqual(packageGaps({}).map((g) => g.split(':')[0]), ['price run', 'parties', 'period', 'jurisdiction', 'financial_structure', 'trigger', 'technical_premium']);
  const runs = [{ kind: 'price', run_id: 'pr_a', job_id: 'j1', recorded_at: '2026-01-01T00:00:00Z' }, { kind: 'price', run_id: 'pr_b', job_id: 'j2', recorded_at: '2026-02-01T00:00:00Z' }];
  // The run that wrote the premium held now, not merely the last one.
  assert.equal(priceRunOf({ provenance: { runs }, technical_premium: { price_id: 'pr_a' } })?.job_id, 'j1');
  assert.equal(priceRunOf({ provenance: { runs } })?.job_id, 'j2');
  assert.equal(money(1234567.5, 'EUR'), 'EUR 1,234,567.50');
});

test('the draft slip writes a step-and-linear payout in words and as a schedule (amounts worked by hand)', () => {
  const trigger: Trigger = {
    type: 'parametric_cat_in_a_box', measurement: { variable: 'magnitude' },
    payout: { function: 'step_linear', attachment: 6.5, step: 0.3, exhaustion: 7.5 },
  };
  // 0.3 × 10 000 000 = 3 000 000 at the attachment; the whole limit from the exhaustion.
  assert.deepEqual(payoutSchedule(trigger, 10_000_000), [
    { level: 'below 6.5', fraction_of_limit: 0, amount: 0 },
    { level: 'at 6.5', fraction_of_limit: 0.3, amount: 3_000_000 },
    { level: 'from 6.5 to 7.5, rising in proportion from 30% of the limit', fraction_of_limit: 1, amount: 10_000_000 },
    { level: '7.5 or more', fraction_of_limit: 1, amount: 10_000_000 },
  ]);
  const words = triggerWords(trigger, undefined, 'USD', 10_000_000);
  assert.equal(words[1], 'Nothing is paid below 6.5; a reading of 6.5 pays 30% of the limit (USD 3,000,000.00), and above it the payout rises in proportion to reach the whole limit (USD 10,000,000.00) at 7.5.');
});

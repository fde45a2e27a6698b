// Track-gate backtest (tropical_cyclone over HURDAT2 Atlantic), checked year by year against a
// recomputation from the raw HURDAT2 lines written here: its own fix parsing, hourly interpolation,
// gate and term tests, ladder and annual cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backtest, checkPaid, closeMoney, lines, partialTerm, rawText, utcDay } from './support.js';

const GATE_C = {
  peril: { code: 'tropical_cyclone', region: { type: 'box', min_latitude: 25.0, max_latitude: 26.5, min_longitude: -81.0, max_longitude: -79.5 } },
  trigger: {
    type: 'parametric_index', data_sources: [{ feed_id: 'noaa-nhc-hurdat2-atlantic', version: '2024-11-18' }],
    measurement: { variable: 'max_sustained_wind_in_gate', unit: 'kt' },
    payout: { function: 'ladder', levels: [{ at_least: 64, fraction: 0.25 }, { at_least: 96, fraction: 0.5 }, { at_least: 113, fraction: 1.0 }] },
  },
  financial_structure: { currency: 'USD', limit: 10000000, attachment: 0 },
  period: { start: '2027-06-01', end: '2027-11-30' },
};

interface Fix { t: number; lat: number; lon: number; wind: number }

/** Storm id -> fixes with a wind value, in time order (repeated times: first kept). */
function hurdat2(): Map<string, Fix[]> {
  const storms = new Map<string, Fix[]>();
  let current: Fix[] = [];
  for (const line of lines(rawText('noaa-nhc-hurdat2-atlantic'))) {
    const f = line.split(',').map((x) => x.trim());
    if (/^[A-Z]{2}\d{6}$/.test(f[0]!)) {
      current = [];
      storms.set(f[0]!, current);
      continue;
    }
    const [date, hhmm, , , latText, lonText, windText] = f;
    const t = Date.UTC(+date!.slice(0, 4), +date!.slice(4, 6) - 1, +date!.slice(6, 8), +hhmm!.slice(0, 2), +hhmm!.slice(2, 4));
    const lat = parseFloat(latText!) * (latText!.endsWith('S') ? -1 : 1);
    const lon = parseFloat(lonText!) * (lonText!.endsWith('W') ? -1 : 1);
    const wind = Number(windText);
    if (current.some((x) => x.t === t)) continue;
    if (wind === -99) { current.push({ t, lat, lon, wind: NaN }); continue; }
    current.push({ t, lat, lon, wind });
  }
  for (const [id, fixes] of storms) storms.set(id, fixes.filter((x) => !Number.isNaN(x.wind)).sort((a, b) => a.t - b.t));
  return storms;
}

const HOUR = 3_600_000;

test('(c) track gate off south-east Florida: strongest interpolated wind in the gate during 1 June-30 November, matching a recount of raw HURDAT2', async () => {
  const artifact = await backtest(GATE_C);
  const inGate = (lat: number, lon: number): boolean => lat >= 25 && lat <= 26.5 && lon >= -81 && lon <= -79.5;
  const termYear = (t: number): number | null => {
    const y = new Date(t).getUTCFullYear();
    return t >= utcDay(y, 6, 1) && t < utcDay(y, 12, 1) ? y : null;
  };
  // (year, storm) -> strongest wind in the gate and the term.
  const best = new Map<number, Map<string, number>>();
  const consider = (id: string, t: number, lat: number, lon: number, wind: number): void => {
    const y = termYear(t);
    if (y === null || !inGate(lat, lon)) return;
    const m = best.get(y) ?? new Map<string, number>();
    best.set(y, m);
    m.set(id, Math.max(m.get(id) ?? -Infinity, wind));
  };
  for (const [id, fixes] of hurdat2()) {
    for (let i = 0; i < fixes.length; i++) {
      const a = fixes[i]!;
      consider(id, a.t, a.lat, a.lon, a.wind);
      const b = fixes[i + 1];
      if (!b) continue;
      for (let h = Math.floor(a.t / HOUR) + 1; h * HOUR < b.t; h++) {
        const f = (h * HOUR - a.t) / (b.t - a.t);
        consider(id, h * HOUR, a.lat + f * (b.lat - a.lat), a.lon + f * (b.lon - a.lon), a.wind + f * (b.wind - a.wind));
      }
    }
  }
  const fraction = (x: number): number => (x >= 113 ? 1 : x >= 96 ? 0.5 : x >= 64 ? 0.25 : 0);
  assert.deepEqual(artifact.years.map((y) => y.year), Array.from({ length: 2024 - 1851 + 1 }, (_, i) => 1851 + i));
  let paying = 0;
  for (const year of artifact.years) {
    const storms = [...(best.get(year.year) ?? new Map<string, number>())].filter(([, w]) => w >= 64);
    const expected = Math.min(10_000_000, storms.reduce((a, [, w]) => a + 10_000_000 * fraction(w), 0));
    checkPaid(year, expected, partialTerm(year.term, { from: '1851-06-25', to: '2024-11-18' }), `payout ${year.year}`);
    assert.deepEqual(year.occurrences.map((o) => o.event_id).sort(), storms.map(([id]) => id).sort(), `storms ${year.year}`);
    for (const o of year.occurrences) {
      const w = storms.find(([id]) => id === o.event_id)![1];
      assert.ok(Math.abs(o.value - w) < 1e-5, `${o.event_id}: ${o.value} vs ${w}`);
    }
    if ((year.payout ?? 0) > 0) paying++;
  }
  assert.ok(paying >= 20);
  // Andrew (AL041992) crossed the gate at Cat 5: the whole limit.
  const andrew = artifact.years.find((y) => y.year === 1992)!.occurrences.find((o) => o.event_id === 'AL041992');
  assert.ok(andrew && andrew.payout === 10_000_000 && andrew.category === 5);
  assert.deepEqual(artifact.data_coverage.years_missing, []);
  // 1851 starts 25 June (24 of 183 term days lacking: partial); 2024 ends 18 November (12 lacking: counted).
  assert.deepEqual((artifact.data_coverage.partial_years as { year: number }[]).map((p) => p.year), [1851]);
  assert.equal(artifact.statistics.years, 2024 - 1851);
  assert.equal('aggregation_window' in (artifact.structure.trigger as object), false);
});

test('(c) the same gate drawn as a polygon, and read in Saffir-Simpson categories, pays the same years', async () => {
  const box = await backtest(GATE_C, { from_year: 1950, to_year: 2024 });
  const polygon = await backtest({
    ...GATE_C,
    peril: { code: 'tropical_cyclone', region: { type: 'polygon', coordinates: [[-81, 25], [-79.5, 25], [-79.5, 26.5], [-81, 26.5], [-81, 25]] } },
  }, { from_year: 1950, to_year: 2024 });
  assert.deepEqual(polygon.years.map((y) => [y.year, y.payout]), box.years.map((y) => [y.year, y.payout]));
  const categories = await backtest({
    ...GATE_C,
    trigger: { ...GATE_C.trigger, measurement: { variable: 'max_sustained_wind_in_gate', unit: 'category' },
      payout: { function: 'ladder', levels: [{ at_least: 1, fraction: 0.25 }, { at_least: 3, fraction: 0.5 }, { at_least: 4, fraction: 1 }] } },
  }, { from_year: 1950, to_year: 2024 });
  // Cat 1 = 64 kt, Cat 3 = 96 kt, Cat 4 = 113 kt: the same ladder in other words.
  assert.deepEqual(categories.years.map((y) => [y.year, y.payout]), box.years.map((y) => [y.year, y.payout]));
});

test('the segment screen changes nothing: samplesInGate equals every track sample filtered by the gate, over every Atlantic storm', async () => {
  const { samplesInGate } = await import('../../../src/domain/triggers/track-gate.js');
  const { trackSamples, gateContains } = await import('../../../src/domain/tracks/gate.js');
  const { load } = await import('./support.js');
  const { data } = await load(GATE_C);
  if (data.kind !== 'tracks') throw new Error('tracks expected');
  const gates = [
    { min_latitude: 25, max_latitude: 26.5, min_longitude: -81, max_longitude: -79.5 },
    { min_latitude: 10, max_latitude: 40, min_longitude: -100, max_longitude: -60 },
  ];
  for (const gate of gates) {
    const extent = { minLat: gate.min_latitude, maxLat: gate.max_latitude, minLon: gate.min_longitude, maxLon: gate.max_longitude };
    for (const storm of data.storms) {
      const fixes = storm.fixes.filter((f) => typeof f.max_wind_kt === 'number' && Number.isFinite(f.max_wind_kt));
      assert.deepEqual(samplesInGate(fixes, gate, extent), trackSamples(fixes).filter((x) => gateContains(gate, x)), storm.storm_id);
    }
  }
});

// POST /accumulation: sums per peril, per declared region, per country and per H3 cell, and the
// Herfindahl–Hirschman index, recomputed here independently on schedules of a few hundred
// locations built in the test (hand-made coordinates and values, not real exposure); tenancy,
// the limits and the refusals.
import assert from 'node:assert/strict';
import { latLngToCell } from 'h3-js';
import { call, eachDialect, envelopeFaults, sharedService, signup, type TestService } from '../support/service.js';

/** A small deterministic generator (Park–Miller), so the schedules are the same on every run. */
function generator(seed: number) {
  let s = seed;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

interface Loc { lat: number | null; lon: number | null; cents: number | null; currency?: string }

function schedule(n: number, seed: number, box: [number, number, number, number], extra: (i: number) => Partial<Loc> = () => ({})): Loc[] {
  const next = generator(seed);
  return Array.from({ length: n }, (_, i) => {
    const lat = box[0] + next() * (box[1] - box[0]);
    const lon = box[2] + next() * (box[3] - box[2]);
    const cents = Math.round(next() * 500_000_000);
    return {
      lat: i % 23 === 5 ? null : Math.round(lat * 1e5) / 1e5,
      lon: i % 23 === 5 ? null : Math.round(lon * 1e5) / 1e5,
      cents: i % 17 === 3 ? null : cents,
      ...extra(i),
    };
  });
}

const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

function objectBody(locs: Loc[], currency: string, peril?: unknown) {
  return {
    ...(peril ? { peril } : {}),
    exposure: {
      locations: locs.map((l, i) => ({
        ref: `R${i}`, address: {}, latitude: l.lat, longitude: l.lon, occupancy: { code: null, text: null }, construction: { code: null, text: null }, year_built: null,
        values: l.cents === null ? { total: null } : { buildings: money(l.cents), total: money(l.cents) },
        ...(l.currency ? { currency: l.currency } : {}),
      })),
      values: { total: null }, currency,
      source_fidelity: { unmapped_columns: [], guessed_units: [], ambiguous_rows: [] },
    },
  };
}

async function create(svc: TestService, key: string, body: unknown): Promise<string> {
  const made = await call(svc.api, 'POST', '/objects', { key, body });
  assert.equal(made.status, 201, made.text);
  return made.body.id;
}

const LA: [number, number, number, number] = [33.9, 34.2, -118.5, -118.1];
const NL: [number, number, number, number] = [52.0, 52.4, 4.7, 5.1];
const REGION = { type: 'box', min_latitude: 34.0, max_latitude: 34.1, min_longitude: -118.4, max_longitude: -118.2 };

eachDialect('accumulation: sums per peril, region, country and H3 cell, and the HHI, recomputed independently', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const quake = schedule(200, 7, LA);
  const flood = schedule(150, 11, NL);
  // No peril; ten rows state their own currency (GBP), the rest take the object's USD; one value
  // beyond a trillion.
  const bare = schedule(100, 13, LA, (i) => (i % 10 === 0 ? { currency: 'GBP' } : i === 1 ? { cents: 123_456_789_012_345 } : {}));
  const sets = [
    { locs: quake, currency: 'USD', peril: 'earthquake', id: await create(svc, key, objectBody(quake, 'USD', { code: 'earthquake', region: REGION })) },
    { locs: flood, currency: 'EUR', peril: 'flood', id: await create(svc, key, objectBody(flood, 'EUR', { code: 'flood' })) },
    { locs: bare, currency: 'USD', peril: null, id: await create(svc, key, objectBody(bare, 'USD')) },
  ];
  const usage = (await call(svc.api, 'GET', '/usage', { key })).body.units.total;
  const answer = await call(svc.api, 'POST', '/accumulation', { key, body: { objects: sets.map((s) => s.id) } });
  assert.equal(answer.status, 200, answer.text.slice(0, 500));
  const doc = answer.body;
  const rows = sets.flatMap((s, o) => s.locs.map((l) => ({ ...l, object: o, currency: l.currency ?? s.currency })));

  // Totals per currency, never converted.
  const sum = (list: typeof rows) => {
    const by = new Map<string, number>();
    for (const r of list) if (r.cents !== null) by.set(r.currency, (by.get(r.currency) ?? 0) + r.cents);
    return [...by.keys()].sort().map((c) => ({ currency: c, total: money(by.get(c)!) }));
  };
  assert.deepEqual(doc.totals.values, sum(rows));
  assert.equal(doc.totals.locations, 450);
  assert.equal(doc.totals.located_locations, rows.filter((r) => r.lat !== null).length);
  assert.equal(doc.totals.unvalued_locations, rows.filter((r) => r.cents === null).length);

  // Every one of the nine perils, then objects naming none.
  assert.deepEqual(doc.perils.map((p: any) => p.peril),
    ['earthquake', 'weather_station', 'tropical_cyclone', 'flood', 'wildfire', 'severe_convective_storm', 'cloud_outage', 'extratropical_cyclone', 'grid_outage', null]);
  for (const p of doc.perils) {
    const members = sets.map((s, o) => ({ s, o })).filter(({ s }) => s.peril === p.peril);
    assert.deepEqual(p.objects, members.map(({ s }) => s.id), `${p.peril}`);
    assert.deepEqual(p.values, sum(rows.filter((r) => members.some(({ o }) => o === r.object))), `${p.peril}`);
  }

  // The declared region: every object's locations inside it (edges inclusive).
  assert.equal(doc.regions.length, 1);
  const region = doc.regions[0];
  assert.deepEqual(region.region, REGION);
  assert.deepEqual(region.declared_by, [{ object_id: sets[0]!.id, peril: 'earthquake' }]);
  const inside = rows.filter((r) => r.lat !== null && r.lat >= REGION.min_latitude && r.lat <= REGION.max_latitude && r.lon! >= REGION.min_longitude && r.lon! <= REGION.max_longitude);
  assert.ok(inside.length > 20, 'the region holds locations of both Los Angeles objects');
  assert.equal(region.locations, inside.length);
  assert.deepEqual(region.values, sum(inside));
  assert.deepEqual(region.objects.map((o: any) => o.object_id), [sets[0]!.id, sets[2]!.id]);
  assert.equal(region.objects[1].locations, inside.filter((r) => r.object === 2).length);

  // Countries from coordinates: Los Angeles in the US, the Dutch schedule in the Netherlands.
  const countries = Object.fromEntries(doc.countries.map((c: any) => [c.country, c]));
  assert.equal(countries.US.locations, rows.filter((r) => r.object !== 1 && r.lat !== null).length);
  assert.equal(countries.NL.locations, rows.filter((r) => r.object === 1 && r.lat !== null).length);
  assert.deepEqual(countries.NL.values, sum(rows.filter((r) => r.object === 1 && r.lat !== null)));

  // Concentration: H3 cells at resolution 7, per currency; HHI recomputed from the cell sums.
  const c = doc.concentration;
  assert.equal(c.h3_resolution, 7);
  assert.deepEqual(c.by_currency.map((b: any) => b.currency), ['EUR', 'GBP', 'USD']);
  for (const b of c.by_currency) {
    const cells = new Map<string, { cents: number; objects: Map<number, number> }>();
    for (const r of rows) {
      if (r.currency !== b.currency || r.lat === null || r.cents === null) continue;
      const cell = latLngToCell(r.lat, r.lon!, 7);
      const t = cells.get(cell) ?? { cents: 0, objects: new Map() };
      t.cents += r.cents;
      t.objects.set(r.object, (t.objects.get(r.object) ?? 0) + r.cents);
      cells.set(cell, t);
    }
    const total = [...cells.values()].reduce((n, t) => n + t.cents, 0);
    assert.equal(b.total, money(total));
    assert.equal(b.cells, cells.size);
    const hhi = [...cells.values()].reduce((n, t) => n + (t.cents / total) ** 2, 0);
    assert.ok(Math.abs(b.hhi - hhi) < 1e-12, `${b.currency} HHI ${b.hhi} vs ${hhi}`);
    const ranked = [...cells.entries()].sort((x, y) => y[1].cents - x[1].cents || (x[0] < y[0] ? -1 : 1));
    assert.equal(b.largest_cell.cell, ranked[0]![0]);
    assert.equal(b.largest_cell.value, money(ranked[0]![1].cents));
    assert.ok(Math.abs(b.largest_cell.share - ranked[0]![1].cents / total) < 1e-12);
    assert.deepEqual(b.top_cells.map((t: any) => [t.cell, t.value]), ranked.slice(0, 10).map(([cell, t]) => [cell, money(t.cents)]));
    for (const t of b.top_cells) {
      const objects = cells.get(t.cell)!.objects;
      assert.deepEqual(t.objects.map((o: any) => [o.object_id, o.value]).sort(), [...objects.entries()].map(([o, v]) => [sets[o]!.id, money(v)]).sort());
    }
  }

  // The same request answers the same bytes; a coarser resolution, fewer cells; nothing metered.
  const again = await call(svc.api, 'POST', '/accumulation', { key, body: { objects: sets.map((s) => s.id) } });
  assert.equal(again.text, answer.text);
  const coarse = await call(svc.api, 'POST', '/accumulation', { key, body: { objects: sets.map((s) => s.id), h3_resolution: 4 } });
  assert.equal(coarse.body.concentration.h3_resolution, 4);
  const usdCells = (d: any) => d.concentration.by_currency.find((b: any) => b.currency === 'USD');
  assert.ok(usdCells(coarse.body).cells < usdCells(doc).cells);
  assert.ok(usdCells(coarse.body).hhi > usdCells(doc).hhi, 'coarser cells concentrate more');
  assert.equal((await call(svc.api, 'GET', '/usage', { key })).body.units.total, usage, 'accumulation is not metered');
});

eachDialect('accumulation refusals: tenancy, unknown and repeated ids, the object limit, the body', async (dialect) => {
  const svc = await sharedService(dialect);
  const a = await signup(svc.api);
  const b = await signup(svc.api);
  const mine = await create(svc, a.key, objectBody(schedule(3, 5, LA), 'USD'));
  const theirs = await create(svc, b.key, objectBody(schedule(3, 5, LA), 'USD'));
  const cases: Array<[unknown, number, string]> = [
    [{ objects: [mine, theirs] }, 404, 'not_found'],
    [{ objects: ['obj_000000000000000000000000'] }, 404, 'not_found'],
    [{ objects: [mine, mine] }, 422, 'invalid_request'],
    [{ objects: [] }, 422, 'invalid_request'],
    [{ objects: Array.from({ length: 1001 }, (_, i) => `obj_${i}`) }, 422, 'invalid_request'],
    [{}, 422, 'invalid_request'],
    [{ objects: [mine], h3_resolution: 16 }, 422, 'invalid_request'],
    [{ objects: [mine], currency: 'USD' }, 422, 'invalid_request'],
    // Over the 1 MiB body limit.
    [{ objects: [mine, 'x'.repeat(1_100_000)] }, 413, 'payload_too_large'],
  ];
  for (const [body, status, code] of cases) {
    const answer = await call(svc.api, 'POST', '/accumulation', { key: a.key, body });
    assert.equal(answer.status, status, `${JSON.stringify(body).slice(0, 80)}: ${answer.text}`);
    assert.equal(answer.body.error.code, code);
    assert.deepEqual(envelopeFaults(answer), []);
  }
  const refused = await call(svc.api, 'POST', '/accumulation', { key: a.key, body: { objects: [mine, theirs] } });
  assert.match(refused.body.error.message, new RegExp(theirs));
  // Each account accumulates its own.
  const own = await call(svc.api, 'POST', '/accumulation', { key: b.key, body: { objects: [theirs] } });
  assert.equal(own.status, 200);
  assert.equal(own.body.totals.locations, 3);
});

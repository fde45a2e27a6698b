// The flood lanes (river-flood, coastal-flood): depth per place and return period from every pinned
// depth map covering the place (the cell holding it), depth → damage fraction through the JRC curve
// of the map's continent and the run's sector, × the place's value; the average annual loss
// integrated over the published return periods by the trapezoid rule over exceedance probability.
//
// Result (pure data; amounts in the unit of the exposure values):
//   maps_read            each map read: feed id, version, sha256, kind, conditions, return periods, grid, place
//   curves               each JRC curve used: continent, sector, source feed
//   aal                  the portfolio's average annual loss (null when no place is modeled)
//   return_period_losses the portfolio loss at each return period every used map publishes
//   by_map               per map: places, AAL and loss per published return period
//   places               per modeled place: depths per map and return period, the map whose loss is taken, losses, AAL
//   unmodeled            count and places [{index, reason}]
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { placesOf, type PlaceExposure } from '../../engine/places.js';
import { itemGroundUp } from '../../engine/loss-engine.js';
import { curveFor, damageFraction, FLOOD_SECTORS, type CountryMaxDamage, type DepthDamageCurve, type FloodSector } from './depth-damage.js';
import { mapExtent, sampleDepths, type DepthMap, type FloodKind, type MapIdentity } from './depth-map.js';
import { PLACE_TERMS_RULE, type PlaceTerms } from '../../engine/place-terms.js';

export interface FloodSpec {
  readonly sector: FloodSector;
  readonly exposure: PlaceExposure;
}

/** Reads the sector (residential by default); the exposure is read by the lab's spec reader. */
export function readFloodSector(sector: unknown, details: string[]): FloodSector {
  if (sector === undefined || sector === null) return 'residential';
  if (typeof sector !== 'string' || !(FLOOD_SECTORS as readonly string[]).includes(sector)) {
    details.push(`sector must be one of ${FLOOD_SECTORS.join(', ')} (default residential)`);
    return 'residential';
  }
  return sector as FloodSector;
}

export function floodSpecFaults(details: string[]): Result<void> {
  return details.length > 0 ? refused(runSpecRefusal(details)) : ok(undefined);
}

export interface ReturnPeriodLoss {
  readonly return_period: number;
  readonly loss: number;
}

export interface AalParts {
  readonly aal: number;
  /** Trapezoids between consecutive published return periods. */
  readonly between_return_periods: number;
  /** Beyond the largest return period: its loss held from 0 to 1 / largest. */
  readonly beyond_largest: number;
}

/**
 * Average annual loss from losses at return periods: exceedance probability p = 1 / return period;
 * between two published periods the loss is taken as linear in p (trapezoid); above the largest
 * period (p below 1 / largest) the loss is held at the largest period's loss; below the smallest
 * period (p above 1 / smallest) nothing is added: floods more frequent than the smallest published
 * return period are taken to cause no loss.
 */
export function trapezoidAal(returnPeriods: readonly number[], losses: readonly number[]): AalParts {
  const pts = returnPeriods.map((rp, i) => ({ p: 1 / rp, loss: losses[i]! })).sort((a, b) => b.p - a.p);
  let between = 0;
  for (let i = 0; i + 1 < pts.length; i++) between += (pts[i]!.p - pts[i + 1]!.p) * (pts[i]!.loss + pts[i + 1]!.loss) / 2;
  const last = pts[pts.length - 1];
  const beyond = last ? last.p * last.loss : 0;
  return { aal: between + beyond, between_return_periods: between, beyond_largest: beyond };
}

export interface FloodOptions {
  readonly lane: 'river-flood' | 'coastal-flood';
  readonly flood: FloodKind;
  readonly model: { id: string; version: string; label: string };
  /** Every pinned map of the lane's kind (none for a lane with nothing pinned). */
  readonly maps: readonly DepthMap[];
  readonly curves: readonly DepthDamageCurve[];
  readonly countries: readonly CountryMaxDamage[];
  /** The pinned JRC tables the curves and maximum damages come from. */
  readonly curveSource: MapIdentity;
  /** A stored object's OED terms (engine/place-terms.ts), applied return period by return period. */
  readonly terms?: PlaceTerms | null;
}

/** One view (insured or net) of the portfolio: its loss at each shared return period and the AAL of those. */
interface FloodView {
  perspective: 'insured' | 'net';
  aal: number | null;
  return_period_losses: ReturnPeriodLoss[];
}

/**
 * The terms on the portfolio's return-period losses: each return period the used maps share is one
 * event in which every modeled place sees its return-period depth (as return_period_losses takes it),
 * one call of the module; the AAL by the same trapezoid rule. Each place's insured and net losses at
 * those return periods, and their AAL, by its index.
 */
function floodTerms(terms: PlaceTerms, common: readonly number[], losses: ReadonlyMap<number, ReadonlyMap<number, number>>) {
  const index = Int32Array.from(losses.keys());
  const at = new Float64Array(index.length);
  const views = { il: [] as ReturnPeriodLoss[], ri: [] as ReturnPeriodLoss[] };
  const places = new Map<number, { il: ReturnPeriodLoss[]; ri: ReturnPeriodLoss[] }>([...losses.keys()].map((i) => [i, { il: [], ri: [] }]));
  const placeIl = new Float64Array(terms.places);
  const placeRi = new Float64Array(terms.places);
  for (const rp of common) {
    index.forEach((i, k) => { at[k] = losses.get(i)!.get(rp)!; });
    placeIl.fill(0);
    placeRi.fill(0);
    const t = terms.event(index, at, 0, index.length, placeIl, placeRi);
    views.il.push({ return_period: rp, loss: t.il });
    views.ri.push({ return_period: rp, loss: t.ri });
    for (const i of index) {
      places.get(i)!.il.push({ return_period: rp, loss: placeIl[i]! });
      places.get(i)!.ri.push({ return_period: rp, loss: placeRi[i]! });
    }
  }
  const aalOf = (rows: ReturnPeriodLoss[]) => (rows.length > 0 ? trapezoidAal(rows.map((r) => r.return_period), rows.map((r) => r.loss)).aal : null);
  const view = (perspective: FloodView['perspective'], rows: ReturnPeriodLoss[]): FloodView => ({ perspective, aal: aalOf(rows), return_period_losses: rows });
  return {
    perspectives: { il: view('insured', views.il), ri: view('net', views.ri) },
    place: (i: number) => {
      const p = places.get(i)!;
      return { insured: { aal: aalOf(p.il), losses: p.il }, net: { aal: aalOf(p.ri), losses: p.ri } };
    },
  };
}

export const FLOOD_UNMODELED_REASONS: Readonly<Record<string, string>> = {
  no_map_pinned: 'No depth map of this lane is pinned here, so no place can be modeled (GET /models lists the maps each lane reads).',
  outside_maps: 'No pinned depth map holds a value at the place (outside every map, or on a cell the map marks as no data).',
  no_coordinates: 'The location has no latitude and longitude.',
};

const UNDEFENDED = 'The maps are undefended: no levees, sea walls or other flood protection are represented, so losses behind defences are overstated.';

function methodText(flood: FloodKind): string[] {
  return [
    'Depth at a place: the cell of each pinned map holding the place, i.e. the cell whose centre is nearest (nearest cell, no bilinear blending), so every depth is a value the map stores; a place on a cell the map marks as no data, or outside the map, is not covered by that map.',
    'Where more than one pinned map covers a place, every map\'s depths are listed and the loss is taken from the map with the finest cells (then the first by feed id).',
    'Depth → damage: the JRC global depth-damage function (Huizinga et al. 2017, HydroMT-FIAT tables in 0.01 m steps) of the map\'s continent and the run\'s sector, interpolated linearly between tabulated depths, 0 at 0 m, held at the 10 m value deeper; loss = damage fraction × value (the value taken as the whole replacement value the curve\'s maximum damage stands for).',
    'The continent and country of a place are those of the map covering it, stated per map (maps_read[].place with its basis); a map with no continent stated takes the global curve, with a warning.',
    'Average annual loss: the trapezoid rule over exceedance probability (1 / return period) between the published return periods; above the largest return period the loss is held at the largest period\'s loss (a rectangle from 0 to 1 / largest); below the smallest return period nothing is added (floods more frequent than it are taken to cause no loss).',
    'Portfolio loss at a return period: the places\' losses at that return period summed, as if every place saw its return-period depth in the same year (full dependence); given for the return periods every map used publishes.',
    UNDEFENDED,
    flood === 'coastal' ? 'Coastal depths are read as published for the map\'s sea level and conditions.' : 'River depths are read as published for the map\'s conditions (see maps_read[].scenario).',
  ];
}

/** Runs a flood lane over its pinned maps. */
export function runFlood(spec: FloodSpec, options: FloodOptions): Record<string, unknown> {
  const places = placesOf(spec.exposure);
  const warnings: string[] = [];
  // Finest cells first: the map whose loss a place takes when several cover it.
  const maps = [...options.maps].sort((a, b) => a.cell_m[0] * a.cell_m[1] - b.cell_m[0] * b.cell_m[1] || (a.identity.feed_id < b.identity.feed_id ? -1 : 1));
  const curveOf = maps.map((m) => {
    const found = curveFor(options.curves, m.place.continent, spec.sector);
    if (!found) throw new Error(`the JRC tables hold no ${spec.sector} curve for ${m.place.continent ?? 'the globe'}`);
    if (found.fallback) warnings.push(`${m.identity.feed_id}: no JRC continent is stated for this map (${m.place.basis}); the global ${spec.sector} curve is used.`);
    return found.curve;
  });
  for (const c of new Set(curveOf)) {
    if (c.continent === 'north america') warnings.push('The pinned North America curves differ from CLIMADA\'s JRC North America residential curve at shallow depths (0.344 against 0.4433 at 0.5 m, per the JRC tables\' manifest): treat North American losses with caution.');
    if (c.continent === 'europe' && c.sector === 'industrial') warnings.push('The pinned Europe industrial curve equals the commercial one, unlike the CLIMAAX breakpoint table (per the JRC tables\' manifest): treat it with caution.');
  }

  const unmodeled: { index: number; reason: string }[] = [];
  const byMap = maps.map(() => ({ places: 0, value: 0, losses: [] as number[] }));
  maps.forEach((m, i) => { byMap[i]!.losses = m.return_periods.map(() => 0); });
  const placeRows: Record<string, unknown>[] = [];
  // Each modeled place's loss by return period (of its map), for the terms.
  const placeLosses = new Map<number, Map<number, number>>();
  let aal = 0;
  let aalBetween = 0;
  let aalBeyond = 0;
  for (const place of places) {
    if (place.lat === null || place.lon === null) { unmodeled.push({ index: place.index, reason: 'no_coordinates' }); continue; }
    if (maps.length === 0) { unmodeled.push({ index: place.index, reason: 'no_map_pinned' }); continue; }
    const samples = maps.map((m) => sampleDepths(m, place.lat!, place.lon!));
    const used = samples.findIndex((s) => s !== null);
    if (used < 0) { unmodeled.push({ index: place.index, reason: 'outside_maps' }); continue; }
    const map = maps[used]!;
    const sample = samples[used]!;
    const curve = curveOf[used]!;
    // Each return period's depth is one event of the loss engine: the curve is the vulnerability.
    const losses = sample.depths.map((d) => itemGroundUp(place.value, (depth) => damageFraction(curve, depth), d));
    const parts = trapezoidAal(map.return_periods, losses);
    placeLosses.set(place.index, new Map(map.return_periods.map((rp, k) => [rp, losses[k]!])));
    aal += parts.aal;
    aalBetween += parts.between_return_periods;
    aalBeyond += parts.beyond_largest;
    const agg = byMap[used]!;
    agg.places++;
    agg.value += place.value;
    losses.forEach((l, k) => { agg.losses[k]! += l; });
    placeRows.push({
      index: place.index,
      lat: place.lat,
      lon: place.lon,
      value: place.value,
      map: map.identity.feed_id,
      curve: { continent: curve.continent, sector: curve.sector },
      depths: samples.flatMap((s, k) => (s === null ? [] : [{
        feed_id: maps[k]!.identity.feed_id,
        cell: { row: s.row, col: s.col },
        depths_m: maps[k]!.return_periods.map((rp, j) => ({ return_period: rp, depth_m: s.depths[j]! })),
      }])),
      losses: map.return_periods.map((rp, k) => ({ return_period: rp, damage_fraction: damageFraction(curve, sample.depths[k]!), loss: losses[k]! })),
      aal: parts.aal,
    });
  }

  const usedMaps = maps.filter((_, i) => byMap[i]!.places > 0);
  const common = usedMaps.length === 0 ? [] : usedMaps[0]!.return_periods.filter((rp) => usedMaps.every((m) => m.return_periods.includes(rp)));
  const returnPeriodLosses: ReturnPeriodLoss[] = common.map((rp) => ({
    return_period: rp,
    loss: maps.reduce((s, m, i) => (byMap[i]!.places > 0 ? s + byMap[i]!.losses[m.return_periods.indexOf(rp)]! : s), 0),
  }));
  for (const m of usedMaps) {
    if (/projection/.test(m.scenario)) warnings.push(`${m.identity.feed_id}: the depths are a ${m.scenario}, not today's climate.`);
    if (m.limitations) warnings.push(`${m.identity.feed_id}: ${m.limitations}`);
  }
  if (usedMaps.length > 1) warnings.push(`Places were modeled on ${usedMaps.length} maps with different return periods: the portfolio losses are given at the ${common.length} return periods they share; by_map gives each map's own.`);
  const reasons: Record<string, string> = {};
  for (const u of unmodeled) reasons[u.reason] = FLOOD_UNMODELED_REASONS[u.reason]!;
  const insured = options.terms ? floodTerms(options.terms, common, placeLosses) : null;
  if (insured) for (const row of placeRows) Object.assign(row, insured.place(row.index as number));
  if (insured && usedMaps.some((m) => m.return_periods.length !== common.length)) warnings.push(`The terms apply at the ${common.length} return periods the used maps share: a place's insured and net AAL are over those, its ground-up AAL over its own map's.`);
  const modeled = placeRows.length;
  const country = (iso: string | null) => options.countries.find((c) => c.iso_a3 !== null && c.iso_a3 === iso);

  return {
    lane: options.lane,
    model: { ...options.model, engine: 'this service (depth maps × JRC depth-damage functions)' },
    sector: spec.sector,
    maps_read: maps.map((m, i) => {
      const c = country(m.place.iso_a3);
      return {
        feed_id: m.identity.feed_id, version: m.identity.version, sha256: m.identity.sha256,
        ...(m.identity.credit_line ? { credit_line: m.identity.credit_line } : {}),
        ...(m.identity.license ? { license: m.identity.license } : {}),
        files_read: m.identity.files_read ?? [],
        flood: m.flood,
        scenario: m.scenario,
        limitations: m.limitations ?? null,
        defended: false,
        return_periods: m.return_periods,
        grid: { rows: m.grid.rows, cols: m.grid.cols, cell_m: m.cell_m, extent: mapExtent(m) },
        place: {
          iso_a3: m.place.iso_a3, continent: m.place.continent, basis: m.place.basis,
          // The JRC country value for the run's sector: reference only, the loss uses the place's value.
          max_damage: c ? { country: c.country, eur_per_m2_2010: c[spec.sector], sector: spec.sector } : null,
        },
        curve: { continent: curveOf[i]!.continent, sector: curveOf[i]!.sector },
        places_modeled: byMap[i]!.places,
      };
    }),
    curves: {
      source: { feed_id: options.curveSource.feed_id, version: options.curveSource.version, sha256: options.curveSource.sha256, files_read: options.curveSource.files_read ?? [], ...(options.curveSource.credit_line ? { credit_line: options.curveSource.credit_line } : {}) },
      used: [...new Set(usedMaps.map((m) => curveOf[maps.indexOf(m)]!))].map((c) => ({ continent: c.continent, sector: c.sector })),
    },
    exposure: { places: places.length, modeled, value_modeled: byMap.reduce((s, b) => s + b.value, 0) },
    unmodeled: { count: unmodeled.length, places: unmodeled, reasons },
    aal: modeled > 0 ? aal : null,
    aal_parts: modeled > 0 ? { between_return_periods: aalBetween, beyond_largest: aalBeyond } : null,
    return_period_losses: returnPeriodLosses,
    by_map: maps.flatMap((m, i) => {
      const b = byMap[i]!;
      if (b.places === 0) return [];
      return [{ feed_id: m.identity.feed_id, places: b.places, value: b.value, aal: trapezoidAal(m.return_periods, b.losses).aal, return_period_losses: m.return_periods.map((rp, k) => ({ return_period: rp, loss: b.losses[k]! })) }];
    }),
    places: placeRows,
    ...(options.terms && insured ? { terms: { ...options.terms.stated(), rule: PLACE_TERMS_RULE }, perspectives: insured.perspectives } : {}),
    ...(modeled === 0 ? { no_loss_figure: maps.length === 0 ? 'No depth map of this lane is pinned: every place is unmodeled and there is no loss figure.' : places.length === 0 ? 'The exposure holds no place: no loss figure.' : 'No place is modeled (see unmodeled): no loss figure.' } : {}),
    method: methodText(options.flood),
    warnings,
  };
}

// OpenQuake's scenario risk over given ground-motion fields (openquake/calculators/scenario_risk.py
// and event_based_risk.py, which it runs: per event and asset, loss = value × loss ratio at the
// field's intensity), with its outputs under its names:
// - risk_by_event: the portfolio's loss per event and loss type, events with no loss left out;
// - aggrisk: loss_value, the mean over all the events of the portfolio's loss (events without loss
//   count as 0), and loss_ratio, loss_value over the exposed value of the loss type;
// - average losses per asset: the mean over the events and the sample standard deviation
//   (ddof = 1, as the engine's asset-loss.csv reported it), events without loss counting as 0;
// - insured losses per asset, from each asset's deductible and insuranceLimit, as
//   scientific.py's insured_losses, reported as <loss type>_ins in aggrisk and risk_by_event too.
// A loss not above the loss type's minimum_asset_loss is dropped, as VulnerabilityFunction.__call__
// keeps only losses > minloss. Pure.
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { seededRandom } from '../../../stats/random.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { ASSET_HAZARD_DISTANCE_KM, SiteIndex, assetValue, insuranceTerms, insuredLoss } from './asset-values.js';
import { imtKey, isUncertain, lossRatio, meanAndCov, sampleRatio, type EventDraw } from './loss-ratios.js';
import type { OqExposureModel, OqGmfs, OqVulnerabilityFunction, OqVulnerabilityModel } from './oq-inputs.js';

export interface ScenarioRiskOptions {
  /** Loss types to compute; every loss type a vulnerability model is given for when absent. */
  readonly loss_types?: readonly string[];
  readonly minimum_asset_loss?: Readonly<Record<string, number>>;
  /** Use the mean loss ratio even where covLR > 0 (OpenQuake's ignore_covs). */
  readonly ignore_covs: boolean;
  readonly master_seed: number;
  /** 1: every asset of an event shares its lognormal deviate (OpenQuake's asset_correlation). */
  readonly asset_correlation: 0 | 1;
  readonly asset_hazard_distance_km?: number;
}

export interface AggRiskRow { loss_type: string; loss_value: number; loss_ratio: number; exposed_value: number; stddev: number | null }
export interface EventLossRow { event_id: number; loss: number; loss_type: string }
export interface AssetLossRow { asset_id: string; taxonomy: string; lon: number; lat: number; loss_type: string; mean: number; stddev: number | null }

export interface ScenarioRiskResult {
  readonly events: number;
  readonly loss_types: string[];
  readonly assets: { total: number; associated: number; discarded: number; discarded_ids: string[]; without_cost: Record<string, number> };
  readonly aggrisk: AggRiskRow[];
  readonly risk_by_event: EventLossRow[];
  readonly avg_losses: AssetLossRow[];
  readonly insured_losses: AssetLossRow[];
  readonly sampled: boolean;
}

/** Rows of the fields grouped by site: rows of site s are order[start[s]..start[s+1]). */
function rowsBySite(gmfs: OqGmfs): { start: Int32Array; order: Int32Array } {
  const n = gmfs.site_index.length;
  const start = new Int32Array(gmfs.sites.length + 1);
  for (let r = 0; r < n; r++) start[gmfs.site_index[r]! + 1]!++;
  for (let s = 0; s < gmfs.sites.length; s++) start[s + 1]! += start[s]!;
  const fill = start.slice(0, gmfs.sites.length);
  const order = new Int32Array(n);
  for (let r = 0; r < n; r++) order[fill[gmfs.site_index[r]!]!++] = r;
  return { start, order };
}

interface Plan {
  lossTypes: string[];
  functions: Map<string, Map<string, { fn: OqVulnerabilityFunction; column: Float64Array }>>;
}

/** Loss types, each taxonomy's function and the field column it reads; every fault named. */
function plan(exposure: OqExposureModel, vulnerability: ReadonlyMap<string, OqVulnerabilityModel>, gmfs: OqGmfs, options: ScenarioRiskOptions): Result<Plan> {
  const faults: string[] = [];
  const lossTypes = options.loss_types ? [...options.loss_types] : [...vulnerability.keys()].sort();
  const columns = new Map(gmfs.imts.map((imt, i) => [imtKey(imt), gmfs.values[i]!]));
  const taxonomies = new Set(exposure.assets.map((a) => a.taxonomy));
  const functions: Plan['functions'] = new Map();
  for (const lt of lossTypes) {
    const model = vulnerability.get(lt);
    if (!model) { faults.push(`loss type ${lt} has no vulnerability model`); continue; }
    const byTaxonomy = new Map<string, { fn: OqVulnerabilityFunction; column: Float64Array }>();
    for (const fn of model.functions) {
      const column = columns.get(imtKey(fn.imt));
      if (!column && taxonomies.has(fn.id)) faults.push(`${lt} vulnerability function ${fn.id} reads ${fn.imt}, which the ground-motion fields do not hold (they hold ${gmfs.imts.join(', ')})`);
      if (column) byTaxonomy.set(fn.id, { fn, column });
    }
    const missing = [...taxonomies].filter((t) => !model.functions.some((f) => f.id === t));
    if (missing.length > 0) faults.push(`the ${lt} vulnerability model has no function for taxonomy ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ` and ${missing.length - 10} more` : ''}`);
    functions.set(lt, byTaxonomy);
  }
  for (const lt of Object.keys(options.minimum_asset_loss ?? {})) {
    if (!lossTypes.includes(lt)) faults.push(`minimum_asset_loss names ${lt}, which is not a loss type of the run (${lossTypes.join(', ')})`);
  }
  if (faults.length > 0) return refused(runSpecRefusal(faults));
  return ok({ lossTypes, functions });
}

/** Mean over e events of losses given for some of them (the rest 0), and the sample standard deviation. */
function moments(losses: Float64Array, n: number, events: number): { mean: number; stddev: number | null } {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += losses[i]!;
  const mean = sum / events;
  if (events < 2) return { mean, stddev: null };
  let ss = (events - n) * mean * mean;
  for (let i = 0; i < n; i++) ss += (losses[i]! - mean) ** 2;
  return { mean, stddev: Math.sqrt(ss / (events - 1)) };
}

function eventMoments(totals: Float64Array): { mean: number; stddev: number | null } {
  return moments(totals, totals.length, totals.length);
}

/** Each asset's site (-1 when it is farther than maxKm from every site), and the assets grouped by site in exposure order. */
function associate(exposure: OqExposureModel, gmfs: OqGmfs, maxKm: number): { siteOf: Int32Array; start: Int32Array; assets: Int32Array } {
  const index = new SiteIndex(gmfs.sites);
  const A = exposure.assets.length;
  const siteOf = new Int32Array(A);
  const start = new Int32Array(gmfs.sites.length + 1);
  exposure.assets.forEach((a, i) => {
    const s = index.closest(a.lat, a.lon, maxKm);
    siteOf[i] = s;
    if (s >= 0) start[s + 1]!++;
  });
  for (let s = 0; s < gmfs.sites.length; s++) start[s + 1]! += start[s]!;
  const fill = start.slice(0, gmfs.sites.length);
  const assets = new Int32Array(start[gmfs.sites.length]!);
  for (let i = 0; i < A; i++) if (siteOf[i]! >= 0) assets[fill[siteOf[i]!]!++] = i;
  return { siteOf, start, assets };
}

/** The mean loss ratio and CoV of one function over a site's rows, read once for every asset of the site with that function. */
function siteRatios(fn: OqVulnerabilityFunction, column: Float64Array, rows: Int32Array): { mean: Float64Array; cov: Float64Array } {
  const mean = new Float64Array(rows.length);
  const cov = new Float64Array(rows.length);
  for (let k = 0; k < rows.length; k++) {
    const gmv = column[rows[k]!]!;
    if (fn.dist === 'PM') { mean[k] = lossRatio(fn, gmv, null, false); continue; }
    const mc = meanAndCov(fn, gmv);
    mean[k] = mc.mean;
    cov[k] = mc.cov;
  }
  return { mean, cov };
}

/** Computes the scenario's losses; a fault in the inputs' fit (a missing function or field) is a 422 naming it. */
export function scenarioRisk(
  exposure: OqExposureModel,
  vulnerability: ReadonlyMap<string, OqVulnerabilityModel>,
  gmfs: OqGmfs,
  options: ScenarioRiskOptions,
): Result<ScenarioRiskResult> {
  const planned = plan(exposure, vulnerability, gmfs, options);
  if (!planned.ok) return planned;
  const { lossTypes, functions } = planned.value;
  const E = gmfs.events.length;
  const L = lossTypes.length;
  const A = exposure.assets.length;
  const maxKm = options.asset_hazard_distance_km ?? ASSET_HAZARD_DISTANCE_KM;
  const grouped = associate(exposure, gmfs, maxKm);
  if (grouped.assets.length === 0) {
    return refused(runSpecRefusal([`no asset of the exposure is within asset_hazard_distance (${maxKm} km) of a site of the ground-motion fields`]));
  }
  const { start, order } = rowsBySite(gmfs);
  const sampled = !options.ignore_covs && [...functions.values()].some((m) => [...m.values()].some((x) => isUncertain(x.fn)));
  // One stream per event, seeded master_seed + event id as OpenQuake seeds its per-event
  // generators, consumed site by site (the order of sites.csv), within a site asset by asset in
  // exposure order, loss type by loss type.
  const streams = sampled ? gmfs.events.map((id) => seededRandom(options.master_seed + id)) : [];
  const draws: EventDraw[][] = lossTypes.map(() => streams.map((rng) => ({ rng })));
  const correlated = options.asset_correlation === 1;
  const eventLoss = lossTypes.map(() => new Float64Array(E));
  const eventInsured = lossTypes.map(() => new Float64Array(E));
  const hasInsured = lossTypes.map(() => false);
  const exposed = lossTypes.map(() => 0);
  const withoutCost: Record<string, number> = {};
  // Per asset and loss type (index a × L + l): the moments, NaN where the asset has no such cost.
  const mean = new Float64Array(A * L).fill(Number.NaN);
  const sd = new Float64Array(A * L).fill(Number.NaN);
  const insMean = new Float64Array(A * L).fill(Number.NaN);
  const insSd = new Float64Array(A * L).fill(Number.NaN);
  let maxRows = 0;
  for (let s = 0; s < gmfs.sites.length; s++) maxRows = Math.max(maxRows, start[s + 1]! - start[s]!);
  const buf = new Float64Array(maxRows);
  const ins = new Float64Array(maxRows);

  for (let s = 0; s < gmfs.sites.length; s++) {
    if (grouped.start[s] === grouped.start[s + 1]) continue;
    const rows = order.subarray(start[s]!, start[s + 1]!);
    const cache = new Map<string, { mean: Float64Array; cov: Float64Array }>();
    for (let g = grouped.start[s]!; g < grouped.start[s + 1]!; g++) {
      const a = grouped.assets[g]!;
      const asset = exposure.assets[a]!;
      for (let l = 0; l < L; l++) {
        const lt = lossTypes[l]!;
        const value = assetValue(exposure, asset, lt);
        if (value === undefined) { withoutCost[lt] = (withoutCost[lt] ?? 0) + 1; continue; }
        exposed[l]! += value;
        const { fn, column } = functions.get(lt)!.get(asset.taxonomy)!;
        const key = `${l}\u0000${asset.taxonomy}`;
        let ratios = cache.get(key);
        if (!ratios) { ratios = siteRatios(fn, column, rows); cache.set(key, ratios); }
        const terms = lt === 'occupants' ? null : insuranceTerms(exposure, asset, lt);
        const minloss = options.minimum_asset_loss?.[lt] ?? 0;
        const draw = sampled && isUncertain(fn);
        const toEvent = gmfs.event_index;
        const ratioMean = ratios.mean;
        const ratioCov = ratios.cov;
        const lossByEvent = eventLoss[l]!;
        const insuredByEvent = eventInsured[l]!;
        const eventDraws = draws[l]!;
        let n = 0;
        for (let k = 0; k < rows.length; k++) {
          const r = rows[k]!;
          const e = toEvent[r]!;
          const ratio = draw ? drawnRatio(fn, column[r]!, ratioMean[k]!, ratioCov[k]!, eventDraws[e]!, correlated) : ratioMean[k]!;
          const loss = value * ratio;
          if (!(loss > minloss)) continue;
          lossByEvent[e]! += loss;
          buf[n] = loss;
          if (terms) {
            const x = insuredLoss(loss, terms.deductible, terms.limit);
            insuredByEvent[e]! += x;
            ins[n] = x;
          }
          n++;
        }
        const m = moments(buf, n, E);
        mean[a * L + l] = m.mean;
        sd[a * L + l] = m.stddev ?? Number.NaN;
        if (terms) {
          hasInsured[l] = true;
          const mi = moments(ins, n, E);
          insMean[a * L + l] = mi.mean;
          insSd[a * L + l] = mi.stddev ?? Number.NaN;
        }
      }
    }
  }
  const discarded = exposure.assets.filter((_, i) => grouped.siteOf[i]! < 0).map((x) => x.id);
  return ok({
    events: E,
    loss_types: lossTypes,
    assets: { total: A, associated: grouped.assets.length, discarded: discarded.length, discarded_ids: discarded.slice(0, 100), without_cost: withoutCost },
    ...portfolio(lossTypes, gmfs.events, eventLoss, eventInsured, hasInsured, exposed),
    avg_losses: assetRows(exposure, lossTypes, mean, sd),
    insured_losses: assetRows(exposure, lossTypes, insMean, insSd),
    sampled,
  });
}

/** A loss ratio drawn from the function's distribution at the site's interpolated mean and CoV. */
function drawnRatio(fn: OqVulnerabilityFunction, gmv: number, mean: number, cov: number, draw: EventDraw, correlated: boolean): number {
  if (fn.dist === 'PM') return lossRatio(fn, gmv, draw, correlated);
  return sampleRatio(fn.dist, mean, cov, draw, correlated);
}

/** Per asset in exposure order, each loss type with a figure. */
function assetRows(exposure: OqExposureModel, lossTypes: readonly string[], mean: Float64Array, sd: Float64Array): AssetLossRow[] {
  const out: AssetLossRow[] = [];
  const L = lossTypes.length;
  exposure.assets.forEach((asset, a) => {
    for (let l = 0; l < L; l++) {
      const m = mean[a * L + l]!;
      if (Number.isNaN(m)) continue;
      const s = sd[a * L + l]!;
      out.push({ asset_id: asset.id, taxonomy: asset.taxonomy, lon: asset.lon, lat: asset.lat, loss_type: lossTypes[l]!, mean: m, stddev: Number.isNaN(s) ? null : s });
    }
  });
  return out;
}

/** aggrisk and risk_by_event from the per-event totals, the insured views after each loss type's own. */
function portfolio(
  lossTypes: readonly string[], events: readonly number[], eventLoss: Float64Array[], eventInsured: Float64Array[], hasInsured: boolean[], exposed: number[],
): { aggrisk: AggRiskRow[]; risk_by_event: EventLossRow[] } {
  const aggrisk: AggRiskRow[] = [];
  const byEvent: EventLossRow[] = [];
  const add = (name: string, totals: Float64Array, value: number) => {
    const { mean, stddev } = eventMoments(totals);
    aggrisk.push({ loss_type: name, loss_value: mean, loss_ratio: value > 0 ? mean / value : 0, exposed_value: value, stddev });
    const rows: EventLossRow[] = [];
    totals.forEach((loss, e) => { if (loss > 0) rows.push({ event_id: events[e]!, loss, loss_type: name }); });
    rows.sort((a, b) => a.loss - b.loss || a.event_id - b.event_id);
    byEvent.push(...rows);
  };
  lossTypes.forEach((lt, l) => add(lt, eventLoss[l]!, exposed[l]!));
  lossTypes.forEach((lt, l) => { if (hasInsured[l]) add(`${lt}_ins`, eventInsured[l]!, exposed[l]!); });
  return { aggrisk, risk_by_event: byEvent };
}

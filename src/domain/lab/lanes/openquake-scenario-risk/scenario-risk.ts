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
import { imtKey, isUncertain, lossRatio, type EventDraw } from './loss-ratios.js';
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
  const maxKm = options.asset_hazard_distance_km ?? ASSET_HAZARD_DISTANCE_KM;
  const index = new SiteIndex(gmfs.sites);
  const { start, order } = rowsBySite(gmfs);
  const sampled = !options.ignore_covs && [...functions.values()].some((m) => [...m.values()].some((x) => isUncertain(x.fn)));
  // One stream per event, seeded master_seed + event id as OpenQuake seeds its per-event
  // generators, consumed in exposure order: asset by asset, loss type by loss type.
  const streams = sampled ? gmfs.events.map((id) => seededRandom(options.master_seed + id)) : [];
  const draws: EventDraw[][] = lossTypes.map(() => streams.map((rng) => ({ rng })));
  const eventLoss = lossTypes.map(() => new Float64Array(E));
  const eventInsured = lossTypes.map(() => new Float64Array(E));
  const hasInsured = lossTypes.map(() => false);
  const exposed = lossTypes.map(() => 0);
  const withoutCost: Record<string, number> = {};
  const avg: AssetLossRow[] = [];
  const insured: AssetLossRow[] = [];
  const discardedIds: string[] = [];
  let associated = 0;
  let maxRows = 0;
  for (let s = 0; s < gmfs.sites.length; s++) maxRows = Math.max(maxRows, start[s + 1]! - start[s]!);
  const buf = new Float64Array(maxRows);
  const ins = new Float64Array(maxRows);

  for (const asset of exposure.assets) {
    const site = index.closest(asset.lat, asset.lon, maxKm);
    if (site < 0) { discardedIds.push(asset.id); continue; }
    associated++;
    const from = start[site]!;
    const to = start[site + 1]!;
    lossTypes.forEach((lt, l) => {
      const value = assetValue(exposure, asset, lt);
      if (value === undefined) { withoutCost[lt] = (withoutCost[lt] ?? 0) + 1; return; }
      exposed[l]! += value;
      const { fn, column } = functions.get(lt)!.get(asset.taxonomy)!;
      const terms = lt === 'occupants' ? null : insuranceTerms(exposure, asset, lt);
      const minloss = options.minimum_asset_loss?.[lt] ?? 0;
      let n = 0;
      for (let k = from; k < to; k++) {
        const r = order[k]!;
        const e = gmfs.event_index[r]!;
        const loss = value * lossRatio(fn, column[r]!, sampled ? draws[l]![e]! : null, options.asset_correlation === 1);
        if (!(loss > minloss)) continue;
        eventLoss[l]![e]! += loss;
        buf[n] = loss;
        if (terms) {
          const x = insuredLoss(loss, terms.deductible, terms.limit);
          eventInsured[l]![e]! += x;
          ins[n] = x;
        }
        n++;
      }
      const where = { asset_id: asset.id, taxonomy: asset.taxonomy, lon: asset.lon, lat: asset.lat, loss_type: lt };
      avg.push({ ...where, ...moments(buf, n, E) });
      if (terms) {
        hasInsured[l] = true;
        insured.push({ ...where, ...moments(ins, n, E) });
      }
    });
  }
  if (associated === 0) {
    return refused(runSpecRefusal([`no asset of the exposure is within asset_hazard_distance (${maxKm} km) of a site of the ground-motion fields`]));
  }
  return ok({
    events: E,
    loss_types: lossTypes,
    assets: { total: exposure.assets.length, associated, discarded: discardedIds.length, discarded_ids: discardedIds.slice(0, 100), without_cost: withoutCost },
    ...portfolio(lossTypes, gmfs.events, eventLoss, eventInsured, hasInsured, exposed),
    avg_losses: avg,
    insured_losses: insured,
    sampled,
  });
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

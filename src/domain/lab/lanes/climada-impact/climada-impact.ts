// The climada-impact run: a CLIMADA user's own hazard, exposures and impact functions (inputs they
// brought, POST /inputs), assigned and computed as CLIMADA's ImpactCalc (assign-centroids.ts,
// impact-calc.ts), with the figures CLIMADA's Impact holds: tot_value, aai_agg, eai_exp, at_event
// with the hazard's event ids, names and dates, and the frequency curve; with `insured`, the same
// figures after each exposure's deductible and cover.
import { ok, refused, type Result } from '../../../../kernel/result.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import type { ClimadaExposuresInput, ClimadaHazardInput, ClimadaImpactFunction, ClimadaImpactFunctionsInput, UserInput } from '../../user-inputs.js';
import { assignCentroids, defaultThreshold, kmToDegree, type AssignDistance } from './assign-centroids.js';
import { freqCurve, impactCalc, type ImpactFigures } from './impact-calc.js';

export interface ClimadaImpactSpec {
  hazard: string;
  exposures: string;
  impact_functions: string;
  haz_type: string | null;
  assign: { distance: AssignDistance; threshold_km: number | null };
  insured: boolean;
  return_periods: number[] | null;
}

export interface ClimadaImpactInputs {
  hazard: UserInput<'climada-hazard'>;
  exposures: UserInput<'climada-exposures'>;
  impact_functions: UserInput<'climada-impact-functions'>;
}

/** A proleptic Gregorian ordinal as an ISO day; null for 0 (no date). 719163 is 1970-01-01's. */
function isoDay(ordinal: number): string | null {
  return ordinal > 0 ? new Date((ordinal - 719163) * 86_400_000).toISOString().slice(0, 10) : null;
}

/** A number JSON can hold: a return period of an event set with no frequency is infinite. */
const finite = (x: number) => (Number.isFinite(x) ? x : null);

/** The impf_ column of the hazard type (CLIMADA's get_impf_column: impf_<haz_type>, else a bare impf_). */
function impfColumn(exposures: ClimadaExposuresInput, hazType: string): Float64Array | undefined {
  return exposures.impf[hazType] ?? exposures.impf[''];
}

/** What CLIMADA's ImpactCalc.impact refuses, named: the impact functions the exposures need. */
function functionFaults(exposures: ClimadaExposuresInput, set: ClimadaImpactFunctionsInput, hazType: string): { faults: string[]; functions: Map<number, ClimadaImpactFunction>; impf?: Float64Array } {
  const faults: string[] = [];
  const impf = impfColumn(exposures, hazType);
  const functions = new Map(set.functions.filter((f) => f.haz_type === hazType).map((f) => [f.id, f]));
  if (!impf) faults.push(`the exposures have no impact-function column impf_${hazType} (columns impf_${Object.keys(exposures.impf).join(', impf_') || ' none'})`);
  if (functions.size === 0) faults.push(`the impact functions have none for hazard type ${hazType} (types: ${[...new Set(set.functions.map((f) => f.haz_type))].join(', ')})`);
  if (impf && functions.size > 0) {
    const unknown = [...new Set(Array.from(impf).filter((id) => !functions.has(id)))];
    if (unknown.length > 0) faults.push(`impact function id(s) ${unknown.slice(0, 10).join(', ')} of the exposures have no match among the ${hazType} impact functions`);
  }
  return { faults, functions, ...(impf ? { impf } : {}) };
}

function figuresOf(f: ImpactFigures, hazard: ClimadaHazardInput, returnPeriods: number[] | null) {
  const curve = freqCurve(f.at_event, hazard.frequency, returnPeriods ?? undefined);
  return {
    aai_agg: f.aai_agg,
    at_event: Array.from(f.at_event),
    eai_exp: Array.from(f.eai_exp),
    freq_curve: { return_per: curve.return_per.map(finite), impact: curve.impact, return_periods: returnPeriods ? 'as asked, impacts interpolated (numpy.interp)' : 'CLIMADA\'s own: one per event, 1 / cumulative frequency of the events at least as large' },
  };
}

/** The run: every fault of the inputs named in one refusal (422), else CLIMADA's figures. */
export function runClimadaImpact(inputs: ClimadaImpactInputs, spec: ClimadaImpactSpec): Result<Record<string, unknown>> {
  const hazard = inputs.hazard.value;
  const exposures = inputs.exposures.value;
  const hazType = spec.haz_type ?? hazard.haz_type;
  const faults: string[] = [];
  if (hazType === '') faults.push('the hazard names no haz_type: give haz_type in the spec');
  if (spec.haz_type !== null && hazard.haz_type !== '' && spec.haz_type !== hazard.haz_type) faults.push(`haz_type ${spec.haz_type} is not the hazard's (${hazard.haz_type})`);
  const checked = functionFaults(exposures, inputs.impact_functions.value, hazType);
  faults.push(...checked.faults);
  const thresholdDeg = spec.assign.threshold_km !== null ? kmToDegree(spec.assign.threshold_km) : defaultThreshold(hazard.lat, hazard.lon);
  if (thresholdDeg === undefined) faults.push('CLIMADA\'s default threshold (twice the centroids\' resolution) cannot be estimated for these centroids: give assign.threshold_km');
  if (faults.length > 0) return refused(runSpecRefusal(faults));
  const assigned = assignCentroids({ lat: exposures.latitude, lon: exposures.longitude }, { lat: hazard.lat, lon: hazard.lon }, spec.assign.distance, thresholdDeg!);
  const calc = impactCalc({
    events: hazard.event_id.length, centroids: hazard.lat.length, frequency: hazard.frequency,
    intensity: hazard.intensity, fraction: hazard.fraction,
    value: exposures.value, impf: checked.impf!, centroid: assigned.centroid,
    deductible: exposures.deductible, cover: exposures.cover, functions: checked.functions,
  }, { insured: spec.insured });
  const identity = (i: UserInput) => ({ id: i.id, kind: i.kind, sha256: i.sha256 });
  const groundUp = figuresOf(calc.ground_up, hazard, spec.return_periods);
  return ok({
    lane: 'climada-impact',
    inputs: { hazard: identity(inputs.hazard), exposures: identity(inputs.exposures), impact_functions: identity(inputs.impact_functions) },
    haz_type: hazType,
    unit: exposures.value_unit,
    intensity_unit: hazard.units,
    frequency_unit: hazard.frequency_unit,
    assignment: {
      distance: spec.assign.distance,
      threshold_deg: thresholdDeg,
      threshold: spec.assign.threshold_km !== null ? `${spec.assign.threshold_km} km as degrees (km_to_degree)` : 'CLIMADA\'s default: twice the centroids\' resolution',
      exact: assigned.exact, nearest: assigned.nearest, unassigned: assigned.unassigned,
    },
    tot_value: calc.tot_value,
    aai_agg: groundUp.aai_agg,
    events: hazard.event_id.map((id, e) => ({ event_id: id, event_name: hazard.event_name[e] ?? null, date: isoDay(hazard.date[e] ?? 0), frequency: hazard.frequency[e]! })),
    at_event: groundUp.at_event,
    exposures: Array.from(exposures.value, (value, p) => ({ latitude: exposures.latitude[p]!, longitude: exposures.longitude[p]!, value, centroid: assigned.centroid[p]! })),
    eai_exp: groundUp.eai_exp,
    freq_curve: groundUp.freq_curve,
    ...(calc.insured ? { insured: {
      rule: 'per exposure, on each event with a stored intensity: impact − deductible × PAA(I); then clipped to [0, cover] where not zero (ImpactCalc.apply_deductible_to_mat, apply_cover_to_mat)',
      deductible: exposures.deductible !== null, cover: exposures.cover !== null,
      ...figuresOf(calc.insured, hazard, spec.return_periods),
    } } : {}),
  });
}

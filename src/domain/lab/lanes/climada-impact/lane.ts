// The climada-impact lane: CLIMADA's ImpactCalc over a hazard, exposures and impact functions the
// user brought (POST /inputs), named by id in the spec. No pinned input; the run reads the three.
import { ok, refused } from '../../../../kernel/result.js';
import { labLane, modelOf, wholeRun, type LaneTable } from '../../lane.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { INPUT_ID_PATTERN } from '../../user-inputs.js';
import { runClimadaImpact, type ClimadaImpactInputs, type ClimadaImpactSpec } from './climada-impact.js';

const INPUT_ID = { type: 'string', pattern: INPUT_ID_PATTERN.source } as const;

type Result = Readonly<Record<string, any>>;

/** The figures of the view a table reads: ground up, or result.insured. */
const view = (result: Result, insured: boolean) => (insured ? result.insured : result);

function eventTable(insured: boolean): LaneTable {
  return {
    description: `${insured ? 'Insured impact' : 'Impact'} per event: event_id, event_name, date, frequency, impact`,
    rows(result) {
      const v = view(result, insured);
      if (!v) return undefined;
      return { header: ['event_id', 'event_name', 'date', 'frequency', 'impact'], rows: (result.events as any[]).map((e, i) => [e.event_id, e.event_name, e.date, e.frequency, v.at_event[i]]) };
    },
  };
}

function exposureTable(insured: boolean): LaneTable {
  return {
    description: `${insured ? 'Insured expected' : 'Expected'} annual impact per exposure: exposure (row, from 0), latitude, longitude, value, centroid (-1: none), eai_exp`,
    rows(result) {
      const v = view(result, insured);
      if (!v) return undefined;
      return { header: ['exposure', 'latitude', 'longitude', 'value', 'centroid', 'eai_exp'], rows: (result.exposures as any[]).map((x, i) => [i, x.latitude, x.longitude, x.value, x.centroid, v.eai_exp[i]]) };
    },
  };
}

function curveTable(insured: boolean): LaneTable {
  return {
    description: `${insured ? 'Insured impact' : 'Impact'} exceedance frequency curve: return_period, impact`,
    rows(result) {
      const v = view(result, insured);
      if (!v) return undefined;
      return { header: ['return_period', 'impact'], rows: (v.freq_curve.return_per as number[]).map((r, i) => [r, v.freq_curve.impact[i]]) };
    },
  };
}

/** The kind of input each member names (a kind is an identity: domain/lab/user-inputs.ts). */
const CLIMADA_KINDS = { hazard: 'climada-hazard', exposures: 'climada-exposures', impact_functions: 'climada-impact-functions' } as const;

export const CLIMADA_IMPACT_TABLES = {
  at_event: eventTable(false),
  eai_exp: exposureTable(false),
  freq_curve: curveTable(false),
  insured_at_event: eventTable(true),
  insured_eai_exp: exposureTable(true),
  insured_freq_curve: curveTable(true),
} as const;

function readSpec(spec: Readonly<Record<string, unknown>>, details: string[]): Omit<ClimadaImpactSpec, 'hazard' | 'exposures' | 'impact_functions'> & Record<'hazard' | 'exposures' | 'impact_functions', string> {
  const id = (name: string) => {
    const v = spec[name];
    if (typeof v !== 'string' || !INPUT_ID_PATTERN.test(v)) details.push(`${name} must be the id of an input you brought (inp_ and 32 hex digits, as POST /inputs answered it)`);
    return String(v);
  };
  const hazType = spec.haz_type;
  if (hazType !== undefined && (typeof hazType !== 'string' || !/^[A-Za-z0-9]{1,8}$/.test(hazType))) details.push('haz_type must be a hazard type such as TC (1 to 8 letters or digits)');
  const assign = (spec.assign ?? {}) as Record<string, unknown>;
  if (typeof assign !== 'object' || assign === null || Array.isArray(assign)) details.push('assign must be an object {threshold_km?, distance?}');
  const unknown = Object.keys(assign).filter((k) => k !== 'threshold_km' && k !== 'distance');
  if (unknown.length > 0) details.push(`assign takes threshold_km and distance, not ${unknown.join(', ')}`);
  const threshold = assign.threshold_km;
  if (threshold !== undefined && !(typeof threshold === 'number' && Number.isFinite(threshold) && threshold >= 0)) details.push('assign.threshold_km must be a number >= 0 (0: exact matches only)');
  const distance = assign.distance ?? 'euclidean';
  if (distance !== 'euclidean' && distance !== 'haversine') details.push('assign.distance must be euclidean (CLIMADA\'s default) or haversine');
  if (spec.insured !== undefined && typeof spec.insured !== 'boolean') details.push('insured must be true or false');
  const rps = spec.return_periods;
  if (rps !== undefined && !(Array.isArray(rps) && rps.length > 0 && rps.length <= 1000 && rps.every((r) => typeof r === 'number' && Number.isFinite(r) && r > 0))) {
    details.push('return_periods must be a list of 1 to 1,000 positive numbers (years)');
  }
  return {
    hazard: id('hazard'), exposures: id('exposures'), impact_functions: id('impact_functions'),
    haz_type: typeof hazType === 'string' ? hazType : null,
    assign: { distance: distance as ClimadaImpactSpec['assign']['distance'], threshold_km: typeof threshold === 'number' ? threshold : null },
    insured: spec.insured === true,
    return_periods: Array.isArray(rps) ? (rps as number[]) : null,
  };
}

export const climadaImpact = labLane({
  id: 'climada-impact',
  lane: 'climada-impact',
  engine: 'climada',
  version: 'climada-impact-1.0.0-r1',
  revision: 'r1',
  label: 'CLIMADA\'s impact calculation (ImpactCalc, CLIMADA 6) over the hazard, exposures and impact functions you brought, recomputed by this service: the same rules, checked against CLIMADA\'s own published test values on its demo data.',
  members: {
    hazard: { schema: INPUT_ID, description: `the id of a ${CLIMADA_KINDS.hazard} input you brought (POST /inputs)` },
    exposures: { schema: INPUT_ID, description: `the id of a ${CLIMADA_KINDS.exposures} input you brought` },
    impact_functions: { schema: INPUT_ID, description: `the id of a ${CLIMADA_KINDS.impact_functions} input you brought` },
    haz_type: { schema: { type: ['string', 'null'] }, description: 'the hazard type whose impf_ column and impact functions are read (default: the hazard\'s haz_type)' },
    assign: {
      schema: { type: 'object', properties: { threshold_km: { type: ['number', 'null'], minimum: 0 }, distance: { enum: ['euclidean', 'haversine'] } }, additionalProperties: false },
      description: '{threshold_km?, distance?}: exposures take their nearest centroid as CLIMADA\'s assign_centroids: exact matches first, then the nearest by straight-line degrees (euclidean, CLIMADA\'s default) or great-circle angle (haversine), none beyond the threshold (default: twice the centroids\' resolution, in degrees; threshold_km converted by km_to_degree; 0: exact matches only)',
    },
    insured: { schema: { type: 'boolean' }, description: 'true: also the insured impact, each exposure\'s deductible and cover applied as CLIMADA\'s ImpactCalc applies them' },
    return_periods: { schema: { type: ['array', 'null'], items: { type: 'number', exclusiveMinimum: 0 } }, description: 'the frequency curve\'s return periods in years (default: CLIMADA\'s own, one per event)' },
  },
  notes: {
    result: 'tot_value, aai_agg, at_event per event (with events: event_id, event_name, date, frequency), eai_exp per exposure (with exposures: latitude, longitude, value, centroid), freq_curve; insured the same after deductible and cover. CSV: ?table=at_event, eai_exp, freq_curve, insured_at_event, insured_eai_exp, insured_freq_curve.',
  },
  caps: {},
  inputs: {},
  userInputs: CLIMADA_KINDS,
  tables: CLIMADA_IMPACT_TABLES,

  normalize(spec) {
    const details: string[] = [];
    const read = readSpec(spec, details);
    if (details.length > 0) return refused(runSpecRefusal(details));
    return ok({ ...modelOf(this), ...read });
  },

  listing: () => ({ pinned_inputs: { none: 'the hazard, exposures and impact functions are inputs you bring: POST /inputs' } }),

  run(_pinned, spec: ClimadaImpactSpec, { progress, userInputs }) {
    const inputs = userInputs as unknown as ClimadaImpactInputs;
    return wholeRun(inputs.exposures.value.value.length, progress, () => {
      const result = runClimadaImpact(inputs, spec);
      return result.ok ? ok({ model: { id: this.id, version: this.version, label: this.label }, ...result.value }) : result;
    });
  },

  progress: (done, total) => `Computed ${done} of ${total} exposures.`,

  result: {
    type: 'object',
    required: ['lane', 'model', 'inputs', 'haz_type', 'tot_value', 'aai_agg', 'events', 'at_event', 'exposures', 'eai_exp', 'freq_curve', 'assignment'],
    properties: {
      lane: { const: 'climada-impact' },
      model: { type: 'object' },
      inputs: { type: 'object', description: 'Each input read: id, kind, sha256.' },
      haz_type: { type: 'string' },
      unit: { type: 'string' },
      intensity_unit: { type: 'string' },
      frequency_unit: { type: 'string' },
      assignment: { type: 'object', description: 'The distance, the threshold in degrees, and how many exposures matched exactly, by nearest neighbour, or took no centroid.' },
      tot_value: { type: 'number', description: 'Σ value over exposures with value > 0 and a centroid (Impact.tot_value).' },
      aai_agg: { type: 'number' },
      events: { type: 'array', description: 'Per event: event_id, event_name, date (ISO day or null), frequency.' },
      at_event: { type: 'array', items: { type: 'number' }, description: 'Impact per event, in the order of events.' },
      exposures: { type: 'array', description: 'Per exposure: latitude, longitude, value, centroid (-1: none).' },
      eai_exp: { type: 'array', items: { type: 'number' }, description: 'Expected annual impact per exposure, in the order of exposures.' },
      freq_curve: { type: 'object', description: 'return_per and impact, ascending return periods.' },
      insured: { type: 'object', description: 'With insured: aai_agg, at_event, eai_exp and freq_curve after deductible and cover.' },
    },
  },
});

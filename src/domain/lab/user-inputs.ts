// Inputs users bring to the lab (POST {lab_url}/inputs): the kinds, the form parts each kind takes,
// what each kind's reader hands a lane, and the reader's signature. The readers themselves are
// registered in one place, feeds/input-readers.ts (INPUT_READERS), one per kind; a lane that reads
// user inputs names, for each spec member holding an input's id, the kind it takes (its
// declaration's `userInputs`), and its run is handed the values read (context.userInputs).
//
// Adding a kind: its value type in InputValues, its entry in INPUT_KINDS (parts and words), and its
// reader in feeds/input-readers.ts; the type checker holds the three together.

import type { OqExposureModel, OqGmfs, OqVulnerabilityModel } from './lanes/openquake-scenario-risk/oq-inputs.js';

/** A hazard as CLIMADA's Hazard holds one: events × centroids, intensity and fraction as CSR. */
export interface ClimadaHazardInput {
  readonly haz_type: string;
  readonly units: string;
  readonly frequency_unit: string;
  readonly event_id: readonly number[];
  readonly event_name: readonly string[];
  /** Each event's date as a proleptic Gregorian ordinal (day 1 is 0001-01-01), CLIMADA's `date`; 0 when the file has none. */
  readonly date: readonly number[];
  readonly frequency: Float64Array;
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  /** Compressed sparse rows, one per event: centroid index and value of each stored entry. */
  readonly intensity: SparseRows;
  /** As intensity; null when the file's fraction is empty (CLIMADA then takes 1 everywhere). */
  readonly fraction: SparseRows | null;
}

export interface SparseRows {
  readonly rowStart: Int32Array;
  readonly column: Int32Array;
  readonly value: Float64Array;
}

/** One exposure point of CLIMADA's Exposures (gdf row): NaN where the file has no such column. */
export interface ClimadaExposuresInput {
  readonly value_unit: string;
  readonly latitude: Float64Array;
  readonly longitude: Float64Array;
  readonly value: Float64Array;
  /** null when the file has no deductible (or cover) column: CLIMADA then applies none. */
  readonly deductible: Float64Array | null;
  readonly cover: Float64Array | null;
  readonly region_id: Float64Array | null;
  /** impf_<haz_type> columns by hazard type (TC, FL, ...); the bare `impf_` column under ''. */
  readonly impf: Readonly<Record<string, Float64Array>>;
}

export interface ClimadaImpactFunction {
  readonly haz_type: string;
  readonly id: number;
  readonly name: string;
  readonly intensity_unit: string;
  readonly intensity: readonly number[];
  readonly mdd: readonly number[];
  readonly paa: readonly number[];
}

export interface ClimadaImpactFunctionsInput {
  readonly functions: readonly ClimadaImpactFunction[];
}

/** What each kind's reader hands a lane. */
export interface InputValues {
  'climada-hazard': ClimadaHazardInput;
  'climada-exposures': ClimadaExposuresInput;
  'climada-impact-functions': ClimadaImpactFunctionsInput;
  'oq-exposure': OqExposureModel;
  'oq-vulnerability': OqVulnerabilityModel;
  'oq-gmfs': OqGmfs;
}

export type InputKind = keyof InputValues;

/** A kind as the form and the docs know it: the file parts it takes, and its words. */
export interface InputKindDeclaration {
  /** The form's file parts: `file` always, first; more for an input of several files (each required). */
  readonly parts: readonly string[];
  readonly description: string;
}

export const INPUT_KINDS: { readonly [K in InputKind]: InputKindDeclaration } = {
  'climada-hazard': {
    parts: ['file'],
    description: 'CLIMADA hazard: the HDF5 file Hazard.write_hdf5 writes (intensity and fraction as CSR, centroids, event ids, names, dates, frequency, units, haz_type), or a legacy MATLAB v7.3 .mat hazard',
  },
  'climada-exposures': {
    parts: ['file'],
    description: 'CLIMADA exposures: CSV, XLSX (sheet assets, or the first) or the HDF5 file Exposures.write_hdf5 writes; columns latitude, longitude, value and optional deductible, cover, impf_<haz_type>, region_id, value_unit',
  },
  'climada-impact-functions': {
    parts: ['file'],
    description: 'CLIMADA impact functions: XLSX (sheet impact_functions) or CSV with impact_fun_id (or id), intensity, mdd, paa, peril_id (or haz_type), and optional intensity_unit and name',
  },
  'oq-exposure': {
    parts: ['file'],
    description: 'OpenQuake exposure model: NRML 0.4 or 0.5 XML with its cost types (aggregated, per_asset, per_area), assets with number, area, costs (deductible and insuranceLimit), occupancies and tags, the assets written in the XML',
  },
  'oq-vulnerability': {
    parts: ['file'],
    description: 'OpenQuake vulnerability model: NRML 0.5 vulnerabilityFunction elements (LN or BT with meanLRs and covLRs, or PM with probabilities per loss ratio) or an NRML 0.4 discreteVulnerabilitySet',
  },
  'oq-gmfs': {
    parts: ['file', 'sites'],
    description: 'OpenQuake ground-motion fields: file, gmf_data.csv (sid or site_id or custom_site_id, eid or event_id, gmv_<IMT> columns), and sites, its sites.csv (site_id or custom_site_id, lon, lat)',
  },
};

/** Whether a string names a kind. */
export function isInputKind(kind: unknown): kind is InputKind {
  return typeof kind === 'string' && Object.hasOwn(INPUT_KINDS, kind);
}

/** One file of an input, as the form carried it. */
export interface InputFile {
  readonly part: string;
  readonly filename: string | undefined;
  readonly bytes: Uint8Array;
}

/** An input's files by part name (every part of its kind is there). */
export type InputFiles = Readonly<Record<string, InputFile>>;

/**
 * A kind's reader (feeds/input-readers.ts). `read` parses the files into the kind's value, and
 * throws an Error whose message names what could not be read (the 422's words: "no column value",
 * "intensity/indptr is not one row per event"); `summary` is the 201's summary: shape, counts,
 * units read. Both run in a compute thread, on upload and again on every run that reads the input.
 */
export interface InputReader<V> {
  read(files: InputFiles): Promise<V>;
  summary(value: V): Record<string, unknown>;
}

/** An input a run reads, as its result names it. */
export interface InputIdentity {
  readonly id: string;
  readonly kind: InputKind;
  readonly sha256: string;
}

/** What a lane's run is handed for one spec member naming an input: its identity and its value. */
export interface UserInput<K extends InputKind = InputKind> extends InputIdentity {
  readonly kind: K;
  readonly value: InputValues[K];
}

/** An input's content address: the same kind and bytes are the same input, whoever brings them. */
export const INPUT_ID_PATTERN = /^inp_[0-9a-f]{32}$/;

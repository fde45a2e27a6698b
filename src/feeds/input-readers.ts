// Every kind of input users bring to the lab, and its one reader (the signature and the kinds are
// in domain/lab/user-inputs.ts). A reader parses an input's files (by part name) into the kind's
// plain value, throwing an Error that names what could not be read, and summarises the value for
// the 201 and GET /inputs/{id}: shape, counts, units read. Both run in a compute thread
// (app/lab-inputs.ts: on upload, and again on every run that reads the input).
import type { InputFiles, InputKind, InputReader, InputValues } from '../domain/lab/user-inputs.js';
import { readClimadaExposuresInput, readClimadaHazardInput, readClimadaImpactFunctionsInput } from './parsers/climada-inputs.js';
import { oqExposureSummary, parseOqExposure } from './parsers/oq-exposure.js';
import { oqVulnerabilitySummary, parseOqVulnerability } from './parsers/oq-vulnerability.js';
import { oqGmfsSummary, parseOqGmfs } from './parsers/oq-gmfs.js';

/** A proleptic Gregorian ordinal (CLIMADA's event date) as an ISO day; null for 0 (no date). */
export function ordinalDay(ordinal: number): string | null {
  if (!(ordinal > 0)) return null;
  // 719163 is the ordinal of 1970-01-01.
  return new Date((ordinal - 719163) * 86_400_000).toISOString().slice(0, 10);
}

function range(values: ArrayLike<number>): [number, number] | null {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < values.length; i++) { const v = values[i]!; if (v < lo) lo = v; if (v > hi) hi = v; }
  return values.length > 0 ? [lo, hi] : null;
}

const file = (files: InputFiles) => files.file!.bytes;

/** A text file's contents: UTF-8, a byte-order mark dropped; bytes that are not UTF-8 are an error. */
function text(files: InputFiles, part: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(files[part]!.bytes);
  } catch {
    throw new Error(`the ${part} part is not UTF-8 text`);
  }
}

/** The format each value was read from, kept beside it only for its summary. */
type Formatted<V> = V & { format?: string };

export const INPUT_READERS: { readonly [K in InputKind]: InputReader<InputValues[K]> } = {
  'climada-hazard': {
    read: (files) => readClimadaHazardInput(file(files)),
    summary: (h: Formatted<InputValues['climada-hazard']>) => {
      const dates = h.date.filter((d) => d > 0);
      let annual = 0;
      for (const f of h.frequency) annual += f;
      return {
        format: h.format ?? null,
        haz_type: h.haz_type, units: h.units, frequency_unit: h.frequency_unit,
        events: h.event_id.length,
        centroids: h.lat.length,
        stored_intensities: h.intensity.value.length,
        fraction: h.fraction ? 'stored' : 'none (1 everywhere)',
        frequency_sum: annual,
        dates: dates.length > 0 ? { first: ordinalDay(Math.min(...dates)), last: ordinalDay(Math.max(...dates)) } : null,
        latitude: range(h.lat), longitude: range(h.lon),
      };
    },
  },
  'climada-exposures': {
    read: (files) => readClimadaExposuresInput(file(files)),
    summary: (e: Formatted<InputValues['climada-exposures']>) => {
      let total = 0;
      for (const v of e.value) total += v;
      return {
        format: e.format ?? null,
        points: e.value.length,
        value_unit: e.value_unit,
        total_value: total,
        columns: ['latitude', 'longitude', 'value', ...(e.deductible ? ['deductible'] : []), ...(e.cover ? ['cover'] : []), ...(e.region_id ? ['region_id'] : []),
          ...Object.keys(e.impf).map((t) => `impf_${t}`)],
        latitude: range(e.latitude), longitude: range(e.longitude),
      };
    },
  },
  'climada-impact-functions': {
    read: (files) => readClimadaImpactFunctionsInput(file(files)),
    summary: (s: Formatted<InputValues['climada-impact-functions']>) => ({
      format: s.format ?? null,
      functions: s.functions.map((f) => ({ haz_type: f.haz_type, id: f.id, name: f.name, intensity_unit: f.intensity_unit, points: f.intensity.length })),
    }),
  },
  'oq-exposure': {
    read: async (files) => parseOqExposure(text(files, 'file')),
    summary: oqExposureSummary,
  },
  'oq-vulnerability': {
    read: async (files) => parseOqVulnerability(text(files, 'file')),
    summary: oqVulnerabilitySummary,
  },
  'oq-gmfs': {
    read: async (files) => parseOqGmfs(text(files, 'file'), text(files, 'sites')),
    summary: oqGmfsSummary,
  },
};

// What every loss lane that applies a stored object's OED terms declares: the pinned OED
// specification read for its peril groups (an input like any other), and the OED peril codes of
// each lane's losses, which the terms must cover to apply (engine/place-terms.ts).
import type { PinnedSnapshot } from '../inputs.js';

export const OED_SPEC_PIN = { feed_id: 'oed-spec', version: '2026-07-08' } as const;

/** The input: OED's peril groups (LocPerilsCovered, PolPerilsCovered... name groups such as WW1 or AA1). */
export const PERIL_GROUPS_INPUT = {
  reader: 'peril-groups',
  source: { pin: OED_SPEC_PIN },
  missing: 'The pinned OED specification (its peril groups) is not available here.',
} as const;

/** The OED peril code of each lane's losses (PerilsCovered.csv). */
export const LANE_OED_PERILS = {
  /** Strong wind from tropical cyclone. */
  tropical_cyclone: ['WTC'],
  /** Earthquake, shake only. */
  earthquake: ['QEQ'],
  /** River / fluvial flood. */
  river_flood: ['ORF'],
  /** Storm surge from strong wind: the coastal maps' inundation from surge over the sea level. */
  coastal_flood: ['WSS'],
} as const satisfies Record<string, readonly string[]>;

/** The OED specification read, named with its digest as every pinned input is, and the file its peril groups come from. */
export function oedSpecIdentity(s: PinnedSnapshot): { feed_id: string; version: string; sha256: string; files_read: { name: string; sha256: string }[] } {
  return { feed_id: s.feed_id, version: s.version, sha256: s.sha256, files_read: s.files.filter((f) => f.name === 'PerilsCovered.csv').map((f) => ({ name: f.name, sha256: f.sha256 })) };
}

/** The result members a lane adds when an object's OED terms applied, as its result schema states them (and oed_spec, unless the lane lists its inputs in an array). */
export function termsResultProperties(perspectives: string, oedSpec = true): Record<string, Record<string, unknown>> {
  return {
    terms: { type: 'object', description: 'When the exposure is an object with OED terms: where they come from, the lane\'s OED perils, how its loss is mapped onto coverages, whether it is reinsured, warnings.' },
    perspectives: { type: 'object', description: `When the exposure is an object with OED terms: il (insured) and ri (net of reinsurance; equal to il without ri_info), ${perspectives}.` },
    ...(oedSpec ? { oed_spec: { type: 'object', description: 'The pinned OED specification the lane reads for its peril groups (an object\'s OED terms), named in every run as every input read.' } } : {}),
  };
}

/** The exposure's words on an object's terms, for each lane's exposure description. */
export const OBJECT_TERMS_WORDS = 'an object ingested from an OED set has its location, account and reinsurance terms applied through the financial module, giving perspectives il and ri';

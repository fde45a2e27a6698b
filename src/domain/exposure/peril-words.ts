// Perils named in a schedule → the canonical peril vocabulary. Two spellings are read: words
// ("Hurricane", "European windstorm", "Bushfire") and OED peril codes as LocPerilsCovered holds
// them ("WTC;WSS", "QQ1"), the codes checked against the pinned PerilValues table. A phrase maps to
// one peril or to none (a word like "windstorm" that does not say which storm, or "flood zone",
// which names a map, not a peril); the longest phrase wins ("extratropical cyclone" over "cyclone").
import { normalizeWords } from './occupancy.js';
import type { OedReference } from './oed-reference.js';
import type { PerilCode } from './types.js';

/** Phrases, normalized, to the peril they name (null: consumed, names none). */
export const PERIL_PHRASES: ReadonlyMap<string, PerilCode | null> = new Map<string, PerilCode | null>([
  ['hurricane', 'tropical_cyclone'],
  ['hurricanes', 'tropical_cyclone'],
  ['typhoon', 'tropical_cyclone'],
  ['typhoons', 'tropical_cyclone'],
  ['cyclone', 'tropical_cyclone'],
  ['cyclones', 'tropical_cyclone'],
  ['tropical cyclone', 'tropical_cyclone'],
  ['tropical storm', 'tropical_cyclone'],
  ['named storm', 'tropical_cyclone'],
  ['earthquake', 'earthquake'],
  ['earthquakes', 'earthquake'],
  ['earth quake', 'earthquake'],
  ['quake', 'earthquake'],
  ['eq', 'earthquake'],
  ['seismic', 'earthquake'],
  ['hail', 'severe_convective_storm'],
  ['hailstorm', 'severe_convective_storm'],
  ['tornado', 'severe_convective_storm'],
  ['tornadoes', 'severe_convective_storm'],
  ['severe convective storm', 'severe_convective_storm'],
  ['severe convective', 'severe_convective_storm'],
  ['convective storm', 'severe_convective_storm'],
  ['severe thunderstorm', 'severe_convective_storm'],
  ['thunderstorm', 'severe_convective_storm'],
  ['scs', 'severe_convective_storm'],
  ['wildfire', 'wildfire'],
  ['wildfires', 'wildfire'],
  ['wild fire', 'wildfire'],
  ['bushfire', 'wildfire'],
  ['bush fire', 'wildfire'],
  ['forest fire', 'wildfire'],
  ['flood', 'flood'],
  ['floods', 'flood'],
  ['flooding', 'flood'],
  ['river flood', 'flood'],
  ['inland flood', 'flood'],
  ['flash flood', 'flood'],
  ['flood zone', null],
  ['flood zones', null],
  ['power outage', 'grid_outage'],
  ['grid outage', 'grid_outage'],
  ['blackout', 'grid_outage'],
  ['european windstorm', 'extratropical_cyclone'],
  ['winter storm', 'extratropical_cyclone'],
  ['winterstorm', 'extratropical_cyclone'],
  ['extratropical cyclone', 'extratropical_cyclone'],
  ['extra tropical cyclone', 'extratropical_cyclone'],
  ['extratropical storm', 'extratropical_cyclone'],
  ['cloud outage', 'cloud_outage'],
  ['weather station', 'weather_station'],
]);

const LONGEST_PHRASE = 3;

/** OED peril input codes to the vocabulary; grouped codes name every peril they group. */
export const OED_PERIL_CODES: Readonly<Record<string, readonly PerilCode[]>> = {
  QEQ: ['earthquake'],
  QFF: ['earthquake'],
  QTS: ['earthquake'],
  QSL: ['earthquake'],
  QLS: ['earthquake'],
  QLF: ['earthquake'],
  QQ1: ['earthquake'],
  WTC: ['tropical_cyclone'],
  WEC: ['extratropical_cyclone'],
  WSS: [], // surge from a strong wind of either kind
  WW1: ['tropical_cyclone', 'extratropical_cyclone'],
  WW2: ['tropical_cyclone', 'extratropical_cyclone'],
  ORF: ['flood'],
  OSF: ['flood'],
  OO1: ['flood'],
  XSL: ['severe_convective_storm'],
  XTD: ['severe_convective_storm'],
  XHL: ['severe_convective_storm'],
  XCH: ['severe_convective_storm'],
  XX1: ['severe_convective_storm'],
  ZST: ['extratropical_cyclone'],
  ZZ1: ['extratropical_cyclone'],
  XZ1: ['severe_convective_storm', 'extratropical_cyclone'],
  BBF: ['wildfire'],
  BB1: ['wildfire'],
};

export interface PerilsNamed {
  perils: PerilCode[];
  /** OED codes present in the table that name no peril of the vocabulary (e.g. AA1, BFR). */
  unmatchedCodes: string[];
}

const CODE_LIST = /^[A-Za-z0-9]{3}(?:\s*[;,/|+\s]\s*[A-Za-z0-9]{3})*$/;
const CODE_SEPARATORS = /[\s;,/|+]+/;

/**
 * Perils a text names. Text that is wholly a list of OED codes is read as codes; anything else as
 * words, scanning for the phrases above.
 */
export function perilsNamed(text: string, oed: OedReference): PerilsNamed {
  const perils = new Set<PerilCode>();
  const unmatchedCodes: string[] = [];
  const trimmed = text.trim();
  if (trimmed === '') return { perils: [], unmatchedCodes };
  if (CODE_LIST.test(trimmed)) {
    const codes = trimmed.toUpperCase().split(CODE_SEPARATORS);
    if (codes.every((c) => oed.perils.has(c))) {
      for (const c of codes) {
        const named = OED_PERIL_CODES[c] ?? [];
        for (const peril of named) perils.add(peril);
        if (named.length === 0) unmatchedCodes.push(c);
      }
      return { perils: [...perils].sort(), unmatchedCodes: perils.size > 0 ? [] : unmatchedCodes };
    }
  }
  const words = normalizeWords(trimmed).split(' ');
  for (let i = 0; i < words.length; ) {
    let matched = 0;
    for (let length = Math.min(LONGEST_PHRASE, words.length - i); length > 0; length--) {
      const phrase = length === 1 ? (words[i] ?? '') : words.slice(i, i + length).join(' ');
      const peril = PERIL_PHRASES.get(phrase);
      if (peril !== undefined) {
        if (peril !== null) perils.add(peril);
        matched = length;
        break;
      }
    }
    i += matched > 0 ? matched : 1;
  }
  return { perils: [...perils].sort(), unmatchedCodes };
}

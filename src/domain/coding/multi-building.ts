// Does a schedule row cover more than one building? The embedded reader: signs in the row's words,
// each with a weight in log-odds, summed over a prior and turned into a probability. The signs are
// the ones underwriters look for: a campus, an estate or park, "various locations", a blanket
// limit, a count of buildings ("3 warehouses"), "portfolio of", an address range ("10-24 High St"),
// plural building nouns; and against: a single unit, flat or house named as one.
import { rowWords } from './classifier.js';

export interface MultiBuildingReading {
  /** Probability, 0 to 1, that the row covers more than one building. */
  readonly probability: number;
  /** The signs read, in the row's order. */
  readonly signs: readonly string[];
}

/** Log-odds of a row with no sign: most schedule rows are one building. */
export const PRIOR_LOG_ODDS = -2.2;

const NUMBER_WORDS = new Set(['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'twenty', 'several', 'multiple', 'numerous', 'various', 'many']);
const BUILDING_NOUNS = new Set([
  'buildings', 'blocks', 'warehouses', 'units', 'sites', 'locations', 'stores', 'shops', 'properties', 'towers',
  'houses', 'homes', 'dwellings', 'factories', 'plants', 'premises', 'branches', 'hotels', 'offices', 'schools',
  'structures', 'sheds', 'barns', 'depots', 'outlets', 'restaurants', 'apartments', 'flats', 'halls', 'facilities',
]);

/** Phrases (normalized words) and their weights. */
const PHRASES: ReadonlyArray<readonly [string, number]> = [
  ['various locations', 4.5], ['all locations', 4.5], ['multiple locations', 4.5], ['several locations', 4.5],
  ['any one location', 3], ['blanket', 4], ['portfolio of', 4.5], ['portfolio', 3], ['campus', 3.5],
  ['estate', 3], ['industrial estate', 3.5], ['trading estate', 3.5], ['housing estate', 4], ['business park', 3],
  ['trade park', 3], ['retail park', 3], ['industrial park', 3], ['office park', 3], ['science park', 3],
  ['complex', 2.5], ['compound', 2], ['per schedule', 3.5], ['as per schedule', 3.5], ['schedule attached', 3.5],
  ['chain of', 3.5], ['group of', 3], ['scattered', 3], ['statewide', 3.5], ['nationwide', 3.5], ['countrywide', 3.5],
  ['floating', 2], ['and other', 2], ['etc', 1],
  ['single building', -3], ['one building', -3], ['single unit', -2], ['single storey', -0.5], ['detached house', -1.5],
  ['single family', -1.5],
];

const PHRASE_MAP = new Map(PHRASES);
const LONGEST = Math.max(...PHRASES.map(([p]) => p.split(' ').length));

/** The probability that a row covers more than one building, and the signs it was read from. */
export function readMultiBuilding(text: string): MultiBuildingReading {
  const signs: string[] = [];
  let logOdds = PRIOR_LOG_ODDS;
  // Address ranges read on the raw text: "10-24 High St", "Units 3–7", "1 to 9 Mill Lane".
  const range = /\b(\d{1,5})[a-z]?\s*(?:-|–|—|to)\s*(\d{1,5})[a-z]?\s+(?!(?:storeys?|stories|floors?|levels?|years?|sq|m2|ft|acres?|hectares?|ha)\b)[A-Za-z]/iu.exec(text);
  if (range && Number(range[2]) > Number(range[1])) {
    signs.push(`address range ${range[1]}-${range[2]}`);
    logOdds += 4;
  }
  const words = rowWords(text);
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(LONGEST, words.length - i); n >= 1; n--) {
      const phrase = words.slice(i, i + n).join(' ');
      const weight = PHRASE_MAP.get(phrase);
      if (weight !== undefined) {
        signs.push(phrase);
        logOdds += weight;
        i += n - 1;
        break;
      }
    }
    const word = words[i]!;
    const next = words[i + 1];
    if (next !== undefined && BUILDING_NOUNS.has(next) && (NUMBER_WORDS.has(word) || (/^\d+$/.test(word) && Number(word) >= 2 && Number(word) < 10_000))) {
      signs.push(`${word} ${next}`);
      logOdds += 5;
      i += 1;
    } else if (BUILDING_NOUNS.has(word) && !(i > 0 && /^(1|one|a|single)$/.test(words[i - 1]!))) {
      signs.push(word);
      logOdds += 2;
    }
  }
  return { probability: 1 / (1 + Math.exp(-logOdds)), signs };
}

// Where an OE-417 row's free-text "Area Affected" lies: the rule that resolves it to US states, and
// to counties where the publisher names them. Nothing is guessed: an area naming no state is left
// unplaced and counted, never put in a state by a city, a utility or a region it mentions.
//
// The rule, in order:
// 1. The structured form DOE writes from 2015 on: segments "State: County, County;" (a bare
//    "State:" names the state alone). When every segment opens with a state name followed by ':'
//    the states are those names and the counties the comma-separated names after each colon
//    (footnote marks such as "[13]" dropped), kept as written.
// 2. Otherwise free text: every full state name (case-insensitive, whole words, longest first so
//    "West Virginia" is not also "Virginia"), "District of Columbia" / "Washington, D.C." as DC,
//    and a two-letter USPS code written in capitals as a whole word ("Northport, NY"). A name
//    followed by "City" or "County" is a place, not the state ("Kansas City", "Washington County"),
//    and is not read ("New York City" lies wholly in New York and is read as it). Two misspellings
//    found in the record ("Califonia", "Kentrucky") are read as the state. Counties are not read
//    from free text (no state is tied to them there).
// 3. An area naming no state but a Canadian province is `outside_united_states`; any other is
//    `no_state_named` ("ISO New England", "Con Edison system", "Metropolitan Kansas City Area").

import type { AreaPlacement } from './records.js';

/** USPS codes of the fifty states, DC and Puerto Rico, by name. */
export const STATE_CODES: Readonly<Record<string, string>> = {
  Alabama: 'AL', Alaska: 'AK', Arizona: 'AZ', Arkansas: 'AR', California: 'CA', Colorado: 'CO', Connecticut: 'CT',
  Delaware: 'DE', 'District of Columbia': 'DC', Florida: 'FL', Georgia: 'GA', Hawaii: 'HI', Idaho: 'ID', Illinois: 'IL',
  Indiana: 'IN', Iowa: 'IA', Kansas: 'KS', Kentucky: 'KY', Louisiana: 'LA', Maine: 'ME', Maryland: 'MD',
  Massachusetts: 'MA', Michigan: 'MI', Minnesota: 'MN', Mississippi: 'MS', Missouri: 'MO', Montana: 'MT',
  Nebraska: 'NE', Nevada: 'NV', 'New Hampshire': 'NH', 'New Jersey': 'NJ', 'New Mexico': 'NM', 'New York': 'NY',
  'North Carolina': 'NC', 'North Dakota': 'ND', Ohio: 'OH', Oklahoma: 'OK', Oregon: 'OR', Pennsylvania: 'PA',
  'Puerto Rico': 'PR', 'Rhode Island': 'RI', 'South Carolina': 'SC', 'South Dakota': 'SD', Tennessee: 'TN', Texas: 'TX',
  Utah: 'UT', Vermont: 'VT', Virginia: 'VA', Washington: 'WA', 'West Virginia': 'WV', Wisconsin: 'WI', Wyoming: 'WY',
};

const NAME_OF_CODE: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(STATE_CODES).map(([n, c]) => [c, n]));

/** The state's name for a USPS code, or undefined. */
export function stateName(code: string): string | undefined {
  return NAME_OF_CODE[code];
}

/** Misspellings of state names found in the record, read as the state (each seen in a DOE row). */
const SPELLINGS: readonly (readonly [RegExp, string])[] = [[/\bCalifonia\b/gi, 'California'], [/\bKentrucky\b/gi, 'Kentucky'], [/\bNew York City\b/gi, 'New York (City)']];

const CODE_OF_LOWER = new Map(Object.entries(STATE_CODES).map(([n, c]) => [n.toLowerCase(), c]));
const NAMES_LONGEST_FIRST = Object.keys(STATE_CODES).sort((a, b) => b.length - a.length);
const NAME_RE = new RegExp(`\\b(${NAMES_LONGEST_FIRST.map((n) => n.replace(/ /g, '\\s+')).join('|')})\\b(?!\\s+(?:City|County)\\b)`, 'gi');
const CODE_RE = new RegExp(`\\b(${Object.values(STATE_CODES).join('|')})\\b`, 'g');
const DC_RE = /\bWashington,?\s+D\.?\s?C\.?|\bD\.C\./gi;
const PROVINCES = /\b(Alberta|British Columbia|Manitoba|New Brunswick|Newfoundland|Nova Scotia|Ontario|Quebec|Saskatchewan|Canada)\b/i;

function structured(area: string): AreaPlacement | null {
  const segments = area.split(';').map((s) => s.trim()).filter((s) => s !== '');
  const states: string[] = [];
  const counties: Record<string, string[]> = {};
  for (const seg of segments) {
    // A segment may hold several bare states ("Maine: Connecticut: Massachusetts:"); the text after
    // the last colon names the last state's counties, unless it is itself a state.
    const parts = seg.split(':').map((p) => p.trim());
    if (parts.length < 2) return null;
    let last: string | null = null;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const code = CODE_OF_LOWER.get(part.replace(/\s+/g, ' ').toLowerCase());
      if (code !== undefined) {
        if (!states.includes(code)) states.push(code);
        last = code;
      } else if (i === parts.length - 1 && last !== null) {
        if (part === '') continue;
        const named = part.split(',').map((c) => c.replace(/\[\d+\]/g, '').trim()).filter((c) => c !== '');
        counties[last] = [...(counties[last] ?? []), ...named];
      } else return null;
    }
  }
  return states.length > 0 ? { states, counties, unplaced: null } : null;
}

/** The states (and counties) a free-text area names, by the rule above. */
export function placeArea(area: string): AreaPlacement {
  const text = SPELLINGS.reduce((t, [re, name]) => t.replace(re, name), area.replace(/\s+/g, ' ').trim());
  if (text === '' || /^(unknown|n\/?a)$/i.test(text)) return { states: [], counties: {}, unplaced: 'empty' };
  const s = structured(text);
  if (s) return s;
  const found: { at: number; code: string }[] = [];
  let rest = text.replace(DC_RE, (m, offset: number) => {
    found.push({ at: offset, code: 'DC' });
    return ' '.repeat(m.length);
  });
  rest = rest.replace(NAME_RE, (m, name: string, offset: number) => {
    found.push({ at: offset, code: CODE_OF_LOWER.get(name.replace(/\s+/g, ' ').toLowerCase())! });
    return ' '.repeat(m.length);
  });
  for (const m of rest.matchAll(CODE_RE)) found.push({ at: m.index, code: m[1]! });
  const states = [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.code))];
  if (states.length > 0) return { states, counties: {}, unplaced: null };
  return { states: [], counties: {}, unplaced: PROVINCES.test(text) ? 'outside_united_states' : 'no_state_named' };
}

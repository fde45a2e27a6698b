// The embedded exposure coder: schedule text → an OED OccupancyCode and ConstructionCode, each with
// a confidence. It runs here, with no network, over the pinned OED code lists (every code it
// proposes is in the pinned table) and the broker words of broker-words.ts.
//
// How a row is read, for each of the two code lists:
// 1. Every phrase of the list's index found in the row as whole words: the broker words, and the
//    OED names themselves ("Commercial, Warehouse" and the part after the comma, "Warehouse", when
//    that part names one code only). A phrase inside a longer phrase found at the same place is
//    dropped ("store" inside "cold store", "masonry" inside "unreinforced masonry").
// 2. A general code ("Commercial, General commercial", "Masonry, Masonry") gives way to a more
//    specific code found in the same row ("commercial office" is an office).
// 3. One code left: that code. Several: the one written first ("office over retail" is an office),
//    at a lower confidence, since the row is mixed. None: the list's Unknown code, at a low one.
//
// The confidence is the share of fields read correctly among fields read the same way (the evidence
// kind, and whether the row is short like a schedule cell or long like prose), on two labelled sets
// pooled: the schedule and broker rows of test/fixtures/coding/labelled-rows.json, and the
// descriptions of the pinned OED tables, each labelled with its own code (prose the broker words
// were not written from). test/domain/coding/classifier.test.ts measures both again on every run
// and holds each confidence to within 0.1 of its share.
import { normalizeWords } from '../exposure/occupancy.js';
import type { OedReference } from '../exposure/oed-reference.js';
import { CONSTRUCTION_BROKER_WORDS, OCCUPANCY_BROKER_WORDS } from './broker-words.js';

/** How a proposal was reached; each has its own calibrated confidence. */
export type Evidence = 'phrase' | 'word' | 'mixed' | 'none';

/** Rows longer than this many words are prose (notes, descriptions) and read less surely. */
export const SHORT_ROW_WORDS = 12;
export type RowLength = 'short' | 'long';

/** Share of fields read correctly on the pooled labelled sets, by row length and evidence (see the file's head). */
export const CONFIDENCE: Readonly<Record<RowLength, Readonly<Record<Evidence, number>>>> = {
  short: { phrase: 0.97, word: 0.75, mixed: 0.5, none: 0.06 },
  long: { phrase: 0.64, word: 0.12, mixed: 0.24, none: 0.02 },
};

export interface CodeProposal {
  readonly code: number;
  /** The OED name of the code, as the pinned table spells it. */
  readonly name: string;
  readonly confidence: number;
  readonly evidence: Evidence;
  /** short: a schedule cell or row; long: more than SHORT_ROW_WORDS words (prose). */
  readonly length: RowLength;
  /** The words of the row the proposal was read from (empty for none). */
  readonly matched: readonly string[];
}

export interface RowCodes {
  readonly occupancy: CodeProposal;
  readonly construction: CodeProposal;
}

interface PhraseIndex {
  readonly codes: ReadonlyMap<number, string>;
  /** Phrase (normalized words joined by one space) → code. */
  readonly phrases: ReadonlyMap<string, number>;
  /** Longest phrase, in words. */
  readonly longest: number;
  readonly unknown: number;
  readonly general: ReadonlySet<number>;
}

function buildIndex(codes: ReadonlyMap<number, string>, words: Readonly<Record<string, number>>, unknown: number): PhraseIndex {
  const phrases = new Map<string, number>();
  const parts = new Map<string, number | null>();
  const general = new Set<number>();
  for (const [code, name] of codes) {
    const comma = name.indexOf(',');
    const part = normalizeWords(comma < 0 ? name : name.slice(comma + 1));
    const broad = normalizeWords(comma < 0 ? name : name.slice(0, comma));
    // "Commercial, General commercial", "Masonry, Masonry", "Utilities, General": the broad class.
    if (/\bgeneral\b/.test(part) || part === broad || code % 50 === 0) general.add(code);
    if (part !== '' && part !== 'unknown') parts.set(part, parts.has(part) && parts.get(part) !== code ? null : code);
  }
  for (const [part, code] of parts) if (code !== null) phrases.set(part, code);
  for (const [code, name] of codes) {
    const full = normalizeWords(name);
    if (full !== 'unknown') phrases.set(full, code);
  }
  // Broker words come last: they say what the trade means by a word the names also use.
  for (const [phrase, code] of Object.entries(words)) if (codes.has(code)) phrases.set(phrase, code);
  let longest = 1;
  for (const phrase of phrases.keys()) longest = Math.max(longest, phrase.split(' ').length);
  return { codes, phrases, longest, unknown, general };
}

const indexes = new WeakMap<ReadonlyMap<number, string>, PhraseIndex>();

function indexFor(codes: ReadonlyMap<number, string>, words: Readonly<Record<string, number>>, unknown: number): PhraseIndex {
  let index = indexes.get(codes);
  if (!index) {
    index = buildIndex(codes, words, unknown);
    indexes.set(codes, index);
  }
  return index;
}

interface Match { readonly start: number; readonly end: number; readonly code: number; readonly phrase: string }

/** Every phrase of the index in the row's words, longest first at each place, inner ones dropped. */
function matches(tokens: readonly string[], index: PhraseIndex): Match[] {
  const found: Match[] = [];
  for (let start = 0; start < tokens.length; start++) {
    for (let n = Math.min(index.longest, tokens.length - start); n >= 1; n--) {
      const phrase = tokens.slice(start, start + n).join(' ');
      const code = index.phrases.get(phrase);
      if (code !== undefined) {
        found.push({ start, end: start + n, code, phrase });
        break;
      }
    }
  }
  return found.filter((m) => !found.some((o) => o !== m && o.start <= m.start && o.end >= m.end && o.end - o.start > m.end - m.start));
}

function propose(tokens: readonly string[], index: PhraseIndex): CodeProposal {
  const length: RowLength = tokens.length > SHORT_ROW_WORDS ? 'long' : 'short';
  const all = matches(tokens, index);
  const specific = all.filter((m) => !index.general.has(m.code));
  const kept = specific.length > 0 ? specific : all;
  if (kept.length === 0) {
    return { code: index.unknown, name: index.codes.get(index.unknown) ?? 'Unknown', confidence: CONFIDENCE[length].none, evidence: 'none', length, matched: [] };
  }
  const codes = new Set(kept.map((m) => m.code));
  const first = kept[0]!;
  const evidence: Evidence = codes.size > 1 ? 'mixed' : kept.some((m) => m.end - m.start > 1) ? 'phrase' : 'word';
  return {
    code: first.code,
    name: index.codes.get(first.code)!,
    confidence: CONFIDENCE[length][evidence],
    evidence,
    length,
    matched: kept.map((m) => m.phrase),
  };
}

/** Words of a row as the index spells them: "Tilt-up", "R.C." and "RC" read alike. */
export function rowWords(text: string): string[] {
  const words = normalizeWords(text.replace(/\b([A-Za-z])\.(?=[A-Za-z]\.)/g, '$1').replace(/\b([A-Za-z])\.([A-Za-z])\.?/g, '$1$2'));
  return words === '' ? [] : words.split(' ');
}

/** The occupancy and construction codes one schedule row proposes, each with its confidence. */
export function codeRow(text: string, oed: OedReference): RowCodes {
  const tokens = rowWords(text);
  return {
    occupancy: propose(tokens, indexFor(oed.occupancy, OCCUPANCY_BROKER_WORDS, 1000)),
    construction: propose(tokens, indexFor(oed.construction, CONSTRUCTION_BROKER_WORDS, 5000)),
  };
}

// What the use cases of exposure coding and geocoding are handed (AppDeps): an exposure coder and
// the geocoders to ask, each speaking plain data. The implementations call outside services (the
// chat-completions coder, the HTTP geocoders) or read an installed package (the embedded coder
// over the pinned OED tables, the offline gazetteer); a call with no usable answer throws.
import type { GeocodeCandidate, QueryShape } from '../domain/geocoding/query.js';

/** One field's answer: an OED code and the provider's confidence in it, 0 to 1. */
export interface CodeAnswer {
  readonly code: number;
  readonly confidence: number;
}

/** A row coded by a provider; null in the list for a row it left unanswered. */
export interface RowCoding {
  readonly occupancy: CodeAnswer;
  readonly construction: CodeAnswer;
}

/** A row read for several buildings; null in the list for a row left unanswered. */
export interface RowMultiBuilding {
  /** Probability, 0 to 1, that the row covers more than one building. */
  readonly probability: number;
}

export interface ExposureCoder {
  /** embedded or chat-completions. */
  readonly provider: string;
  /** The model answering (the embedded coder's version, or the configured model's name). */
  readonly model: string;
  /** One entry per row, in order. Throws when the provider gave no usable answer at all. */
  codeRows(rows: readonly string[]): Promise<Array<RowCoding | null>>;
  flagRows(rows: readonly string[]): Promise<Array<RowMultiBuilding | null>>;
}

export interface Geocoder {
  /** nominatim, photon or gazetteer: named on every candidate it produces. */
  readonly name: string;
  /** Lines to show wherever its candidates are shown (its data's licence). */
  readonly attribution: readonly string[];
  /** The query shapes it answers (the gazetteer knows places, not addresses). */
  readonly shapes: ReadonlySet<QueryShape>;
  /** Candidates, best first (an empty list is an answer). Throws when unreachable, slow or refusing. */
  search(q: string, limit: number): Promise<GeocodeCandidate[]>;
}

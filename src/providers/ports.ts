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

/** Limits of one call to a user-named URL. */
export interface TargetCallLimits {
  /** Names the target in messages (e.g. "webhook receiver"). */
  readonly name: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

export interface TargetRequest {
  readonly method: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/**
 * Calls to URLs users name (webhook receivers, exchange platforms) under the address rule: public
 * unicast only, https only, checked when a URL is registered and again inside every connection
 * (providers/safe-outbound.ts). Redirects are answered, never followed.
 */
export interface UserNamedTargets {
  /** The URL's faults as written and as its host resolves now, one sentence each; [] when it may be called. */
  faults(url: string, rules?: { readonly refuseQueryAndFragment?: boolean }): Promise<string[]>;
  /** One request; any HTTP status is an answer. Throws OutboundError (failure 'unsafe_address' when the rule refused the address dialled). */
  send(url: string, request: TargetRequest, limits: TargetCallLimits): Promise<{ readonly status: number; readonly body: Buffer }>;
}

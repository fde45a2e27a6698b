// What the use cases of exposure coding and geocoding are handed (AppDeps): an exposure coder and
// the geocoders to ask, each speaking plain data. The implementations call outside services (the
// chat-completions coder, the HTTP geocoders) or read an installed package (the embedded coder
// over the pinned OED tables, the offline gazetteer); a call with no usable answer throws.
import type { GeocodeCandidate, QueryShape } from '../domain/geocoding/query.js';
import type { Result } from '../kernel/result.js';

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
  /**
   * The steps of reaching a URL's host, each timed: its name resolved (every address checked), then
   * a connection (TLS for https) to a checked address and its peer checked. Sends no request.
   */
  probe(url: string, timeoutMs: number): Promise<ConnectProbe>;
}

/** One timed step of a probe: what was found, or the fault that stopped it. */
export type ProbeStep<T> = ({ readonly ok: true } & T & { readonly ms: number }) | { readonly ok: false; readonly ms: number; readonly fault: string };

export interface ConnectProbe {
  readonly dns: ProbeStep<{ readonly addresses: readonly string[] }>;
  /** Absent when the name did not resolve to addresses that may be dialled. */
  readonly connect?: ProbeStep<{ readonly address: string; readonly tls: string | null }>;
}

/** What the lab needs to run an exchange model on its provider's platform (the internal connector route's answer). */
export interface ExchangeConnector {
  readonly model_id: string;
  readonly name: string;
  readonly provider: { readonly name: string };
  readonly base_url: string;
  readonly model_ref: string;
  /** Opened from its seal for this call only; never stored, logged or returned to a user. */
  readonly credentials: string;
}

/**
 * The lab's way to a listing's connector: GET /internal/exchange/models/{id}/connector on the API
 * host, over loopback with the environment's internal credential. A refusal there (not found, not
 * granted, not ready, credentials unavailable) comes back as the same refusal.
 */
export interface ExchangeConnectors {
  connector(modelId: string, accountId: string): Promise<Result<ExchangeConnector>>;
}

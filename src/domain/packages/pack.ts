// A submission pack as data (SPEC: POST /objects/{id}/package, Boundaries): the exposure summary,
// the pricing exhibit with the price run's complete assumption set, the draft slip under the
// headings brokers use, and the backtest exhibit when a backtest of the priced terms is recorded.
// Every document carries the draft watermark and the pack says it is analysis only. The figures
// are the price run's and the backtest's own, copied, never recomputed. Pure: the same object
// version, price run and backtest give the same pack, byte for byte.
import { canonicalJson, contentAddress } from '../../kernel/canonical-json.js';
import { PACKAGE_SCHEMA_VERSION } from '../../kernel/versions.js';
import type { PriceDocument } from '../pricing/technical-price.js';
import type { BacktestArtifact, YearOut } from '../backtest/artifact.js';
import { exposureSummary, type ExposureSummary } from './exposure-summary.js';
import type { PriceRunRef } from './gaps.js';

/** The documents of a pack, in the pack's order. */
export const PACK_DOCUMENTS = ['exposure_summary', 'pricing_exhibit', 'draft_slip', 'backtest_exhibit'] as const;
export type PackDocumentName = (typeof PACK_DOCUMENTS)[number];

export const WATERMARK = 'DRAFT — not an offer';

export const PACK_STATEMENT =
  'Analysis only. This pack is a draft for discussion, assembled from a technical price and a replay of public history; it is not an ' +
  'offer, a quotation, a binder or a contract, and the service cannot bind, issue, endorse, claim or settle. Every document in it is ' +
  'watermarked "' + WATERMARK + '".';

export type PriceRun = PriceDocument & { readonly id: string; readonly object_id: string; readonly backtest?: { readonly id: string } };

export interface PackInput {
  readonly object: Record<string, unknown> & { id: string };
  readonly objectVersion: number;
  readonly priceRun: PriceRunRef;
  /** The price run's document, as its job recorded it. */
  readonly price: PriceRun;
  /** The backtest of the priced terms over the priced window, when one is recorded. */
  readonly backtest: (BacktestArtifact & { readonly id: string }) | null;
  /** The documents asked for; all when none are named. */
  readonly documents: readonly PackDocumentName[];
}

// ---------------------------------------------------------------------------------------------
// Pricing exhibit

export interface PricingExhibit {
  readonly kind: 'pricing_exhibit';
  readonly title: string;
  readonly price_id: string;
  readonly statement: string;
  readonly model: PriceDocument['model'];
  readonly backtest_engine: PriceDocument['inputs']['backtest_engine'];
  /** The feed triples read: feed id, version and the SHA-256 of the exact bytes. */
  readonly feeds_read: readonly PriceDocument['feed'][];
  readonly window: PriceDocument['inputs']['window'];
  readonly parameters: PriceDocument['inputs']['parameters'];
  readonly historical_burn: PriceDocument['historical_burn'];
  readonly fitted_view: PriceDocument['fitted_view'];
  readonly credibility: PriceDocument['blend'];
  readonly loads: PriceDocument['loads'];
  readonly technical_premium: PriceDocument['technical_premium'];
  readonly multiple_of_expected_loss: number;
  readonly record_needed: PriceDocument['record_needed'];
  readonly data_quality: PriceDocument['data_quality'];
  readonly assumptions: readonly string[];
  readonly terms_priced: Record<string, unknown>;
}

function pricingExhibit(price: PriceRun): PricingExhibit {
  return {
    kind: 'pricing_exhibit',
    title: 'Pricing exhibit',
    price_id: price.id,
    statement: price.statement,
    model: price.model,
    backtest_engine: price.inputs.backtest_engine,
    feeds_read: [price.feed],
    window: price.inputs.window,
    parameters: price.inputs.parameters,
    historical_burn: price.historical_burn,
    fitted_view: price.fitted_view,
    credibility: price.blend,
    loads: price.loads,
    technical_premium: price.technical_premium,
    multiple_of_expected_loss: price.multiple_of_expected_loss,
    record_needed: price.record_needed,
    data_quality: price.data_quality,
    assumptions: price.assumptions,
    terms_priced: price.inputs.structure,
  };
}

// ---------------------------------------------------------------------------------------------
// Draft slip

export interface SlipSection {
  readonly heading: string;
  readonly lines: readonly string[];
}

export interface DraftSlip {
  readonly kind: 'draft_slip';
  readonly title: string;
  readonly status: string;
  readonly sections: readonly SlipSection[];
  /** The payout schedule as a table: the level reached, the share of the limit, the amount. */
  readonly payout_schedule: readonly { readonly level: string; readonly fraction_of_limit: number; readonly amount: number }[];
  /** The trigger exactly as the object states it. */
  readonly trigger_in_full: Record<string, unknown>;
}

export interface Trigger {
  type?: string;
  data_sources?: { feed_id: string; version?: string }[];
  measurement?: { variable?: string; unit?: string; aggregation?: string; max_depth_km?: number };
  aggregation_window?: { duration?: string };
  payout?: { function?: string; levels?: { at_least: number; fraction: number }[]; attachment?: number; step?: number; exhaustion?: number; basis?: string };
}

/** An amount in a currency, grouped in thousands with the minor unit shown: "USD 10,000,000.00". */
export function money(amount: number, currency: string): string {
  const [whole, fraction] = Math.abs(amount).toFixed(2).split('.');
  return `${amount < 0 ? '-' : ''}${currency} ${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

function percent(fraction: number): string {
  return `${Number((fraction * 100).toPrecision(10))}%`;
}

const TRIGGER_TYPES: Record<string, string> = {
  parametric_cat_in_a_box: 'Parametric, cat-in-a-box',
  parametric_index: 'Parametric, index',
};

function measured(t: Trigger): string {
  const m = t.measurement ?? {};
  const variable = (m.variable ?? 'the index').replace(/_/g, ' ');
  const unit = m.unit ? ` in ${m.unit}` : '';
  const how = m.aggregation ? ` (${m.aggregation})` : '';
  return `${variable}${unit}${how}`;
}

export function payoutSchedule(t: Trigger, limit: number): DraftSlip['payout_schedule'] {
  const p = t.payout ?? {};
  const unit = t.measurement?.unit ? ` ${t.measurement.unit}` : '';
  if (p.function === 'ladder') {
    return (p.levels ?? []).map((l) => ({ level: `at least ${l.at_least}${unit}`, fraction_of_limit: l.fraction, amount: Math.round(l.fraction * limit * 100) / 100 }));
  }
  if (p.function === 'linear') {
    return [
      { level: `below ${p.attachment}${unit}`, fraction_of_limit: 0, amount: 0 },
      { level: `from ${p.attachment}${unit} to ${p.exhaustion}${unit}, in proportion`, fraction_of_limit: 1, amount: limit },
      { level: `${p.exhaustion}${unit} or more`, fraction_of_limit: 1, amount: limit },
    ];
  }
  if (p.function === 'step_linear') {
    const step = p.step ?? 0;
    return [
      { level: `below ${p.attachment}${unit}`, fraction_of_limit: 0, amount: 0 },
      { level: `at ${p.attachment}${unit}`, fraction_of_limit: step, amount: Math.round(step * limit * 100) / 100 },
      { level: `from ${p.attachment}${unit} to ${p.exhaustion}${unit}, rising in proportion from ${percent(step)} of the limit`, fraction_of_limit: 1, amount: limit },
      { level: `${p.exhaustion}${unit} or more`, fraction_of_limit: 1, amount: limit },
    ];
  }
  return [];
}

export function triggerWords(t: Trigger, peril: Record<string, unknown> | undefined, currency: string, limit: number): string[] {
  const words: string[] = [];
  const region = peril?.region as { type?: string; min_latitude?: number; max_latitude?: number; min_longitude?: number; max_longitude?: number } | undefined;
  const where = region?.type === 'box'
    ? ` within the box ${region.min_latitude}° to ${region.max_latitude}° latitude, ${region.min_longitude}° to ${region.max_longitude}° longitude`
    : region ? ` within the region stated in the terms (${region.type})` : '';
  const window = t.aggregation_window?.duration ? ` over an aggregation window of ${t.aggregation_window.duration} (ISO 8601)` : '';
  words.push(`${TRIGGER_TYPES[t.type ?? ''] ?? t.type ?? 'Parametric'}: the ${measured(t)} recorded by the data source${where}${window}.`);
  const p = t.payout ?? {};
  const unit = t.measurement?.unit ? ` ${t.measurement.unit}` : '';
  if (p.function === 'ladder') {
    for (const l of p.levels ?? []) words.push(`A reading of at least ${l.at_least}${unit} pays ${percent(l.fraction)} of the limit (${money(l.fraction * limit, currency)}).`);
    words.push('The highest level reached by an occurrence pays; levels do not add.');
  } else if (p.function === 'linear') {
    words.push(`Nothing is paid below ${p.attachment}${unit}; from ${p.attachment}${unit} the payout rises in proportion to reach the whole limit (${money(limit, currency)}) at ${p.exhaustion}${unit}${p.basis ? `, read on the ${p.basis.replace(/_/g, ' ')}` : ''}.`);
  } else if (p.function === 'step_linear') {
    const step = p.step ?? 0;
    words.push(`Nothing is paid below ${p.attachment}${unit}; a reading of ${p.attachment}${unit} pays ${percent(step)} of the limit (${money(step * limit, currency)}), ` +
      `and above it the payout rises in proportion to reach the whole limit (${money(limit, currency)}) at ${p.exhaustion}${unit}${p.basis ? `, read on the ${p.basis.replace(/_/g, ' ')}` : ''}.`);
  }
  return words;
}

function partyLines(parties: Record<string, { name: string } & Record<string, unknown>>): string[] {
  const order = ['insured', 'cedent', 'reinsured', 'reinsurer', 'broker'];
  const roles = Object.keys(parties).sort((a, b) => {
    const ia = order.indexOf(a); const ib = order.indexOf(b);
    return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib) || (a < b ? -1 : a > b ? 1 : 0);
  });
  return roles.map((role) => {
    const { name, ...ids } = parties[role]!;
    const extra = Object.keys(ids).sort().map((k) => `${k} ${String(ids[k])}`);
    return `${role.charAt(0).toUpperCase()}${role.slice(1).replace(/_/g, ' ')}: ${name}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`;
  });
}

function draftSlip(object: Record<string, unknown>, price: PriceRun, feedPublisher: string | null): DraftSlip {
  const trigger = object.trigger as Trigger;
  const peril = object.peril as Record<string, unknown> | undefined;
  const fs = object.financial_structure as { currency: string; limit: number; attachment?: number; annual_limit?: number };
  const period = object.period as { start: string; end: string };
  const j = object.jurisdiction as { country: string; subdivision?: string; governing_law?: string };
  const premium = price.technical_premium;
  const sources = (trigger.data_sources ?? []).map((d) => d.version ? `${d.feed_id}, version ${d.version}` : d.feed_id);
  const feed = price.feed;
  const sections: SlipSection[] = [
    { heading: 'TYPE', lines: [`Parametric ${String(peril?.code ?? '').replace(/_/g, ' ')} cover: ${TRIGGER_TYPES[trigger.type ?? ''] ?? trigger.type}.`, 'Draft terms for discussion; not an offer.'] },
    { heading: 'INSURED / PARTIES', lines: partyLines(object.parties as Record<string, { name: string }>) },
    { heading: 'PERIOD', lines: [`From ${period.start} to ${period.end}, both days inclusive.`] },
    { heading: 'JURISDICTION', lines: [`Country: ${j.country}${j.subdivision ? `, ${j.subdivision}` : ''}.`, `Governing law: ${j.governing_law ?? 'not stated in the terms'}.`] },
    { heading: 'LIMIT', lines: [`${money(fs.limit, fs.currency)} per occurrence.`, ...(fs.annual_limit !== undefined ? [`${money(fs.annual_limit, fs.currency)} in the annual aggregate.`] : [])] },
    { heading: 'ATTACHMENT', lines: [fs.attachment ? `${money(fs.attachment, fs.currency)} annual aggregate retention on the year's sum of payouts.` : 'None: the first payout of the year is paid in full.'] },
    { heading: 'TRIGGER', lines: triggerWords(trigger, peril, fs.currency, fs.limit) },
    { heading: 'PAYOUT SCHEDULE', lines: payoutSchedule(trigger, fs.limit).map((r) => `${r.level}: ${percent(r.fraction_of_limit)} of the limit, ${money(r.amount, fs.currency)}`) },
    { heading: 'DATA SOURCE', lines: [
      `The trigger is measured on ${sources.join('; ')}${feedPublisher ? `, published by ${feedPublisher}` : ''}, as pinned: SHA-256 ${feed.sha256} of the exact bytes read.`,
      'Should the data source be discontinued or materially revised, the parties agree a replacement in good faith; until then the pinned snapshot governs.',
    ] },
    { heading: 'CALCULATION AGENT', lines: ['The calculation agent is to be agreed between the parties. It determines the index and the payout from the data source named above, following the trigger as stated in full in this slip; its determination is final save for manifest error.'] },
    { heading: 'TECHNICAL PREMIUM', lines: [
      `Technical price ${money(premium.amount, premium.currency)} (rate on line ${percent(Number(premium.rate_on_line.toPrecision(6)))}), by ${price.model.name} ${price.model.version}, price run ${price.id}.`,
      'A technical price, not a quote: an actuarial estimate of what the terms cost over the pinned record, under the assumptions of the pricing exhibit. It is not an offer to insure at this or any premium.',
    ] },
    { heading: 'STATUS', lines: [`${WATERMARK}. Analysis only; the service cannot bind, issue, endorse, claim or settle.`] },
  ];
  return {
    kind: 'draft_slip',
    title: 'Draft slip',
    status: WATERMARK,
    sections,
    payout_schedule: payoutSchedule(trigger, fs.limit),
    trigger_in_full: object.trigger as Record<string, unknown>,
  };
}

// ---------------------------------------------------------------------------------------------
// Backtest exhibit

export interface BacktestYearRow {
  readonly year: number;
  readonly record: YearOut['record'];
  readonly payout: number | null;
  readonly payout_on_partial_record?: number | null;
  readonly gross_payout: number | null;
  readonly occurrences: number;
}

export interface BacktestExhibit {
  readonly kind: 'backtest_exhibit';
  readonly title: string;
  readonly backtest_id: string;
  readonly statement: string;
  readonly feed: BacktestArtifact['feed'];
  readonly engine: BacktestArtifact['engine'];
  readonly window: BacktestArtifact['window'];
  readonly currency: string;
  /** The terms replayed, as the artifact states them (the chart reads its financial structure and peril). */
  readonly structure: Record<string, unknown>;
  readonly statistics: BacktestArtifact['statistics'];
  readonly data_coverage: Record<string, unknown>;
  readonly years: readonly BacktestYearRow[];
}

function backtestExhibit(artifact: BacktestArtifact & { id: string }): BacktestExhibit {
  return {
    kind: 'backtest_exhibit',
    title: 'Backtest exhibit',
    backtest_id: artifact.id,
    statement: artifact.statement,
    feed: artifact.feed,
    engine: artifact.engine,
    window: artifact.window,
    currency: artifact.currency,
    structure: artifact.structure,
    statistics: artifact.statistics,
    data_coverage: artifact.data_coverage,
    years: artifact.years.map((y) => ({
      year: y.year, record: y.record, payout: y.payout, gross_payout: y.gross_payout, occurrences: y.occurrences.length,
      ...(y.record === 'partial' ? { payout_on_partial_record: (y.payout_on_partial_record as number | null | undefined) ?? null } : {}),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// The pack

export type PackDocument = ExposureSummary | PricingExhibit | DraftSlip | BacktestExhibit;

export interface Pack {
  readonly schema_version: string;
  readonly kind: 'submission_pack';
  readonly id: string;
  readonly watermark: typeof WATERMARK;
  readonly statement: string;
  readonly object: { readonly id: string; readonly version: number };
  readonly price_run: PriceRunRef & { readonly model: PriceDocument['model'] };
  readonly backtest_id: string | null;
  /** The date the pack is as of: the day its price run was recorded (the PDFs carry it). */
  readonly as_of: string;
  readonly documents: Partial<Record<PackDocumentName, PackDocument & { readonly watermark: typeof WATERMARK }>>;
  /** Documents asked for and not in the pack, each with why. */
  readonly omitted: readonly { readonly document: PackDocumentName; readonly reason: string }[];
  readonly links: Record<string, string>;
}

/** The pack's id: a content address of what it was built from. */
export function packId(input: Pick<PackInput, 'object' | 'objectVersion' | 'priceRun' | 'backtest' | 'documents'>): string {
  const documents = PACK_DOCUMENTS.filter((d) => input.documents.length === 0 || input.documents.includes(d));
  return `pk_${contentAddress({
    object: { id: input.object.id, version: input.objectVersion }, price_run: input.priceRun.run_id, backtest: input.backtest?.id ?? null, documents, schema: PACKAGE_SCHEMA_VERSION,
  }).slice(0, 32)}`;
}

export function assemblePack(input: PackInput, feedPublisher: string | null = null): Pack {
  const { object, price, backtest } = input;
  const asked = PACK_DOCUMENTS.filter((d) => input.documents.length === 0 || input.documents.includes(d));
  const id = packId(input);
  const documents: Record<string, unknown> = {};
  const omitted: { document: PackDocumentName; reason: string }[] = [];
  for (const name of asked) {
    const doc: PackDocument | null = name === 'exposure_summary' ? exposureSummary(object)
      : name === 'pricing_exhibit' ? pricingExhibit(price)
        : name === 'draft_slip' ? draftSlip(object, price, feedPublisher)
          : backtest ? backtestExhibit(backtest) : null;
    if (doc === null) {
      omitted.push({ document: name, reason: `no backtest of the priced terms over the priced window is recorded (backtest ${price.backtest?.id ?? 'unknown'}): cut a structure from the object without varying it, backtest it over its whole record, and package again` });
      continue;
    }
    documents[name] = { ...doc, watermark: WATERMARK };
  }
  const links: Record<string, string> = { self: `/packages/${id}`, object: `/objects/${object.id}`, pdf: `/packages/${id}/pack.pdf` };
  for (const name of Object.keys(documents)) links[name] = `/packages/${id}/documents/${name}.pdf`;
  if (backtest) links.backtest = `/backtests/${backtest.id}`;
  return {
    schema_version: PACKAGE_SCHEMA_VERSION,
    kind: 'submission_pack',
    id,
    watermark: WATERMARK,
    statement: PACK_STATEMENT,
    object: { id: object.id, version: input.objectVersion },
    price_run: { ...input.priceRun, model: price.model },
    backtest_id: backtest?.id ?? null,
    as_of: input.priceRun.recorded_at.slice(0, 10),
    documents: documents as Pack['documents'],
    omitted,
    links,
  };
}

/** The pack as the canonical JSON it is stored and served as. */
export function packJson(pack: Pack): string {
  return canonicalJson(pack);
}

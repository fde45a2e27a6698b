// The exposure coder over an OpenAI-compatible chat-completions API (POST {base}/chat/completions).
// The rows go as one user message; the answer is asked for under a strict JSON schema
// (response_format json_schema, strict: true) and read again here, row by row: a row the answer
// leaves out, answers twice, or answers with a value out of range is left unanswered; an answer that
// is not that JSON at all (or a refusal, a cut-off answer, an HTTP error, a timeout) is no answer.
// The key goes in the Authorization header only and is never logged.
import type { OedReference } from '../domain/exposure/oed-reference.js';
import { OutboundClient, OutboundError, type OutboundOptions } from './http-client.js';
import type { ExposureCoder, RowCoding, RowMultiBuilding } from './ports.js';

export interface ChatCompletionsSettings {
  /** e.g. https://api.openai.com/v1; the request goes to {baseUrl}/chat/completions. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string | undefined;
  readonly timeoutMs: number;
  readonly userAgent: string;
  /** Largest answer read. */
  readonly maxBytes?: number;
  /** Connection policy handed to the outbound client (address checks, proxies). */
  readonly dispatcher?: OutboundOptions['dispatcher'];
}

const CONFIDENCE = { type: 'number', minimum: 0, maximum: 1 } as const;

/** The answer's schema for exposure codes, sent as response_format. */
export const CODES_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['rows'],
  properties: {
    rows: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'occupancy_code', 'occupancy_confidence', 'construction_code', 'construction_confidence'],
        properties: {
          index: { type: 'integer' },
          occupancy_code: { type: 'integer' },
          occupancy_confidence: CONFIDENCE,
          construction_code: { type: 'integer' },
          construction_confidence: CONFIDENCE,
        },
      },
    },
  },
} as const;

/** The answer's schema for multi-building flags. */
export const FLAGS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['rows'],
  properties: {
    rows: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'probability'],
        properties: { index: { type: 'integer' }, probability: CONFIDENCE },
      },
    },
  },
} as const;

function codeLines(table: ReadonlyMap<number, string>): string {
  return [...table].map(([code, name]) => `${code} ${name}`).join('\n');
}

function codingInstructions(oed: OedReference): string {
  return [
    'You code rows of an insurance schedule of locations to Open Exposure Data (OED) codes.',
    'For each row give the OccupancyCode and the ConstructionCode from the lists below, and your confidence in each, from 0 to 1, as the probability that the code is right.',
    'Use 1000 (occupancy) or 5000 (construction) when the row says nothing of it. Answer every row by its index.',
    '', 'OccupancyCode list:', codeLines(oed.occupancy), '', 'ConstructionCode list:', codeLines(oed.construction),
  ].join('\n');
}

const FLAG_INSTRUCTIONS = [
  'You read rows of an insurance schedule of locations.',
  'For each row give the probability, from 0 to 1, that the row covers more than one building',
  '(a campus, an estate, various locations, a blanket limit, a count of buildings, a portfolio, an address range).',
  'Answer every row by its index.',
].join('\n');

/** The rows of a parsed answer, by index; rows answered twice or out of range are dropped. */
function byIndex<T>(answer: unknown, count: number, read: (row: Record<string, unknown>) => T | null): Array<T | null> {
  const rows = (answer as { rows?: unknown } | null)?.rows;
  if (!Array.isArray(rows)) throw new OutboundError('malformed', 'the model\'s answer has no rows array');
  const out: Array<T | null> = new Array(count).fill(null);
  const seen = new Set<number>();
  const twice = new Set<number>();
  for (const row of rows) {
    if (row === null || typeof row !== 'object') continue;
    const index = (row as { index?: unknown }).index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) continue;
    if (seen.has(index)) twice.add(index);
    seen.add(index);
    out[index] = read(row as Record<string, unknown>);
  }
  for (const index of twice) out[index] = null;
  return out;
}

const isCode = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
const isShare = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

export function chatCompletionsCoder(settings: ChatCompletionsSettings, oed: () => Promise<OedReference>): ExposureCoder {
  const client = new OutboundClient({
    name: `the chat-completions provider (${settings.model})`,
    userAgent: settings.userAgent,
    timeoutMs: settings.timeoutMs,
    maxBytes: settings.maxBytes ?? 1024 * 1024,
    // A paid API meters by tokens and sets its own rate limits: no spacing here (the row budget caps use).
    minIntervalMs: 0,
    ...(settings.dispatcher ? { dispatcher: settings.dispatcher } : {}),
  });
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  async function ask(instructions: string, rows: readonly string[], name: string, schema: object): Promise<unknown> {
    const body = {
      model: settings.model,
      temperature: 0,
      messages: [
        { role: 'system', content: instructions },
        { role: 'user', content: JSON.stringify({ rows: rows.map((text, index) => ({ index, text })) }) },
      ],
      response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } },
    };
    const answer = await client.json(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: JSON.stringify(body),
    });
    const choice = (answer as { choices?: Array<{ finish_reason?: string; message?: { content?: unknown; refusal?: unknown } }> })?.choices?.[0];
    if (!choice?.message) throw new OutboundError('malformed', 'the model\'s answer has no message');
    if (choice.message.refusal) throw new OutboundError('malformed', 'the model refused to answer');
    if (choice.finish_reason === 'length') throw new OutboundError('malformed', 'the model\'s answer was cut off');
    const content = choice.message.content;
    if (typeof content !== 'string') throw new OutboundError('malformed', 'the model\'s answer has no text');
    try {
      return JSON.parse(content);
    } catch {
      throw new OutboundError('malformed', 'the model\'s answer is not JSON');
    }
  }

  return {
    provider: 'chat-completions',
    model: settings.model,
    async codeRows(rows): Promise<Array<RowCoding | null>> {
      const answer = await ask(codingInstructions(await oed()), rows, 'exposure_codes', CODES_SCHEMA);
      return byIndex(answer, rows.length, (r) => (isCode(r.occupancy_code) && isShare(r.occupancy_confidence) && isCode(r.construction_code) && isShare(r.construction_confidence)
        ? { occupancy: { code: r.occupancy_code, confidence: r.occupancy_confidence }, construction: { code: r.construction_code, confidence: r.construction_confidence } }
        : null));
    },
    async flagRows(rows): Promise<Array<RowMultiBuilding | null>> {
      const answer = await ask(FLAG_INSTRUCTIONS, rows, 'multi_building_flags', FLAGS_SCHEMA);
      return byIndex(answer, rows.length, (r) => (isShare(r.probability) ? { probability: r.probability } : null));
    },
  };
}

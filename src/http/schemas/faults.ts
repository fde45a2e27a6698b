// The one place a request schema's faults become words. Every route's query, path and body are
// checked by Ajv against the route's schema; each Ajv error is written here as the sentence a
// careful reader of that request would say, and together they make one 422 refusal.
import type { FastifySchemaValidationError } from 'fastify';
import type { Ajv } from 'ajv';
import { ApiError, refusal } from '../../kernel/refusal.js';
import { instant, parseIsoDuration } from '../../kernel/dates.js';
import { LIST_PAGE, PAGE } from '../../app/paging.js';

/**
 * Query values stay strings (no type coercion: "" and "10abc" are not numbers, a repeated
 * parameter is an array); each kind of value a query takes is a named string format.
 */
interface TextFormat {
  /** What a value in this format is, for the contract. */
  reads: string;
  validate: (text: string) => boolean;
  fault: (name: string, text: string) => string;
}

const quoted = (text: string) => `"${text.slice(0, 40)}"`;
const decimal = (text: string) => text.trim() !== '' && Number.isFinite(Number(text));

function integerFrom(min: number, max: number): TextFormat {
  return {
    reads: `an integer from ${min} to ${max}`,
    validate: (text) => /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max,
    fault: (name, text) => `${name} must be an integer from ${min} to ${max}, got ${quoted(text)}`,
  };
}

function decimalWithin(limit: number): TextFormat {
  return {
    reads: `a decimal number from -${limit} to ${limit}`,
    validate: (text) => decimal(text) && Math.abs(Number(text)) <= limit,
    fault: (name) => `${name} must be a decimal number from -${limit} to ${limit}`,
  };
}

export const TEXT_FORMATS = {
  decimal: {
    reads: 'a decimal number',
    validate: decimal,
    fault: (name, text) => `${name} must be a number, got ${quoted(text)}`,
  },
  latitude: decimalWithin(90),
  longitude: decimalWithin(180),
  'page-limit': integerFrom(1, PAGE.ceiling),
  'list-limit': integerFrom(1, LIST_PAGE.ceiling),
  'page-offset': integerFrom(0, Number.MAX_SAFE_INTEGER),
  'geocode-limit': integerFrom(1, 20),
  instant: {
    reads: 'a date (YYYY-MM-DD, midnight UTC) or a date-time with its offset',
    validate: (text) => instant(text) !== undefined,
    fault: (name) => `${name} must be a date (YYYY-MM-DD) or a date-time with its offset`,
  },
  'idempotency-key': {
    reads: '1 to 255 visible ASCII characters (no spaces)',
    validate: (text) => /^[!-~]{1,255}$/.test(text),
    fault: (name, text) => `${name} must be 1 to 255 visible ASCII characters (no spaces or controls), got ${text.length} character${text.length === 1 ? '' : 's'}: ${quoted(text)}`,
  },
  'iso-duration': {
    reads: 'an ISO 8601 duration in weeks, days or hours (P7D, PT36H)',
    validate: (text) => durationFault(text) === undefined,
    fault: (name, text) => `${name}: ${durationFault(text)}`,
  },
} satisfies Record<string, TextFormat>;

export type TextFormatName = keyof typeof TEXT_FORMATS;

function durationFault(text: string): string | undefined {
  try {
    parseIsoDuration(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Registers the text formats on the Ajv instance of a host (Fastify's `ajv.plugins`). */
export function textFormats(ajv: Ajv): Ajv {
  for (const [name, format] of Object.entries(TEXT_FORMATS)) ajv.addFormat(name, { type: 'string', validate: format.validate });
  return ajv;
}

/** Which part of the request a schema checked (Fastify's names; arguments: a tool's, on the tool server). */
export type SchemaErrorDataVar = 'body' | 'headers' | 'params' | 'querystring' | 'arguments';

/** An Ajv error as the host's Ajv reports it (verbose: the value and the schema around it). */
type SchemaFault = FastifySchemaValidationError & { data?: unknown; parentSchema?: { properties?: Record<string, unknown>; description?: string } };

const PART: Record<SchemaErrorDataVar, string> = { querystring: 'query', body: 'body', params: 'path', headers: 'request headers', arguments: 'arguments' };

function typeWords(type: unknown): string {
  const words: Record<string, string> = { object: 'an object', array: 'an array', string: 'a string', integer: 'an integer', number: 'a number', boolean: 'true or false', null: 'null' };
  return (Array.isArray(type) ? type : [type]).map((t) => words[String(t)] ?? String(t)).join(' or ');
}

const characters = (n: unknown) => `${String(n)} character${n === 1 ? '' : 's'}`;

/** The members an object schema reads, or what to say when it reads none. */
function listed(schema: SchemaFault['parentSchema'], none: string): string {
  const names = Object.keys(schema?.properties ?? {});
  return names.length > 0 ? `read: ${names.join(', ')}` : none;
}

/** One fault of a query or a header: named by the parameter, as a reader of query strings words it. */
function queryFault(fault: SchemaFault): string {
  const name = fault.instancePath.slice(1);
  const params = fault.params as Record<string, unknown>;
  switch (fault.keyword) {
    case 'additionalProperties':
      return `unknown parameter ${String(params.additionalProperty)} (${listed(fault.parentSchema, 'this route reads none')})`;
    case 'required':
      return `${String(params.missingProperty)} is required`;
    case 'type':
      return Array.isArray(fault.data) ? `parameter ${name} is given more than once` : `${name} must be ${typeWords(params.type)}`;
    case 'format': {
      const format = TEXT_FORMATS[params.format as TextFormatName];
      if (format) return format.fault(name, String(fault.data));
      break;
    }
    case 'enum':
      return `${name} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}, got ${quoted(String(fault.data))}`;
  }
  return `${name} ${fault.message ?? 'is not acceptable'}`;
}

/** One fault of a body or path: named by where it sits (body.window.from_year). */
function documentFault(fault: SchemaFault, part: string): string {
  const at = part + fault.instancePath.replace(/\//g, '.');
  const params = fault.params as Record<string, unknown>;
  switch (fault.keyword) {
    case 'additionalProperties':
      return `${at} has an unknown member "${String(params.additionalProperty)}" (${listed(fault.parentSchema, 'it takes no members')})`;
    case 'required':
      return `${at} is missing the required member "${String(params.missingProperty)}"`;
    case 'type':
      return `${at} must be ${typeWords(params.type)}`;
    case 'pattern':
      if (fault.parentSchema?.description) return `${at} must be ${fault.parentSchema.description}`;
      break;
    case 'enum':
      return `${at} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'minLength':
      return `${at} must be at least ${characters(params.limit)} long`;
    case 'maxLength':
      return `${at} must be at most ${characters(params.limit)} long`;
  }
  return `${at} ${fault.message ?? 'is not acceptable'}`;
}

function describeFault(fault: SchemaFault, part: SchemaErrorDataVar): string {
  return part === 'querystring' || part === 'headers' ? queryFault(fault) : documentFault(fault, PART[part]);
}

/** How a route names its refusal of a request its schema does not accept. */
export interface SchemaRefusal {
  /** The code of the refusal (invalid_request unless the route has its own, e.g. invalid_structure). */
  code?: string;
  /** What the body is called in the message ("run spec", "backtest request"). */
  body?: string;
}

/** Every fault of one request as one 422 refusal, each fault a detail. */
export function schemaRefusal(faults: readonly FastifySchemaValidationError[], part: SchemaErrorDataVar, how: SchemaRefusal = {}): ApiError {
  // An anyOf's own fault only says that no branch matched; each branch's fault says why.
  const details = faults.filter((f) => f.keyword !== 'anyOf').map((f) => describeFault(f as SchemaFault, part));
  const subject = (part === 'body' || part === 'arguments') && how.body !== undefined ? how.body : PART[part];
  // A route's own code is about what it reads; a header it does not accept is an invalid request.
  const code = part === 'headers' ? 'invalid_request' : how.code ?? 'invalid_request';
  return ApiError.of(refusal(422, code, `The ${subject} ${part === 'headers' || part === 'arguments' ? 'are' : 'is'} not acceptable: ${details.join('; ')}.`, details));
}

// Monitoring records, their webhooks and delivery logs (SPEC: Monitoring record, Events).
import { INTEGER, LINKS, NUMBER, OBJECT, STRING, operation, queryOf, shape, text, type JsonSchema } from './operation.js';

const DATE = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
const NULLABLE_NUMBER = { type: ['number', 'null'] } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;
const RECORD_PARAM = { type: 'object', properties: { id: { type: 'string', description: 'The monitoring record\'s id (mon_...).' } }, required: ['id'] };

const MEASUREMENT = shape('The measurement, recomputed on this read against the newest pinned snapshot of the feed (docs/monitoring.md).', {
  status: { enum: ['in_progress', 'complete', 'ahead_of_record', 'no_record', 'unmeasurable'], description: 'in_progress: the record reaches into the term but not its end; complete: the record covers the whole term; ahead_of_record: the term begins after the last day the snapshot holds, so nothing is measured (never a zero); no_record: the snapshot holds no record for the term; unmeasurable: the structure can no longer be measured (reason says why).' },
  reason: NULLABLE_STRING,
  term: shape('The current term: the structure\'s term cut to the days in force; the last that has begun, else the first.', { year: INTEGER, from: DATE, to: DATE }),
  feed: shape('The snapshot read.', { feed_id: STRING, version: STRING, sha256: STRING }),
  as_of: { ...NULLABLE_STRING, description: 'The last day the snapshot holds (its period of record\'s end).' },
  index: shape('The index so far in the term: the largest value read (below the lowest level too).', {
    value: NULLABLE_NUMBER, unit: STRING, at: NULLABLE_STRING, event_id: NULLABLE_STRING,
    window: { anyOf: [shape('First and last day.', { from: STRING, to: STRING }), { type: 'null' }], description: 'A daily index: the window (first and last day) of the term maximum.' },
  }),
  occurrences: { type: 'array', description: 'Cat-in-a-box and gates: the occurrences so far that reach the lowest level, each with the publisher\'s event (or storm) id, its value and the payout fraction it implies.', items: shape('An occurrence reaching the lowest level.', {
    event_id: { type: ['string', 'null'] }, name: { type: ['string', 'null'] }, date: STRING, time: { type: ['string', 'null'] }, value: NUMBER,
    event_ids: { type: 'array', items: STRING }, payout_fraction: { type: 'number', description: 'The fraction of the limit its value implies (before the annual aggregate).' },
  }, ['event_id', 'date', 'time', 'value', 'payout_fraction']) },
  level: { anyOf: [shape('The level reached.', { reached: INTEGER, of: INTEGER, at_least: NUMBER }), { type: 'null' }], description: 'The highest payout level reached: reached (1 = the attachment), of (levels in all), at_least (its index value); null below the attachment.' },
  payout_fraction: { ...NULLABLE_NUMBER, description: 'The fraction of the limit the index value implies, before the annual aggregate; a measurement, not a claim.' },
  attachment: NUMBER,
  exhaustion: NUMBER,
  distance_to_attachment: { ...NULLABLE_NUMBER, description: 'attachment − index value in the index\'s unit, 0 once reached; null when nothing is measured.' },
  distance_to_exhaustion: NULLABLE_NUMBER,
}, ['status']);

const RECORD = shape('A monitoring record: a structure recorded as in force, with its measurement.', {
  schema_version: STRING,
  id: STRING,
  structure_id: STRING,
  label: NULLABLE_STRING,
  state: { enum: ['active', 'expired', 'ended'], description: 'active; expired once the last day in force has passed (still measured, and still notified when a late snapshot moves the term\'s measurement); ended by DELETE (nothing more is delivered).' },
  in_force: shape('The days in force, both included.', { from: DATE, to: DATE }),
  created_at: { type: 'string', format: 'date-time' },
  ended_at: { type: ['string', 'null'], format: 'date-time' },
  measured_at: { type: 'string', format: 'date-time' },
  measurement: MEASUREMENT,
  statement: STRING,
  links: LINKS,
});

export const startMonitoring = operation({
  id: 'startMonitoring',
  retiring: 'monitor',
  summary: 'Record a structure as in force and measure its index (being retired; still works)',
  description: 'An assertion about a transaction executed outside the service. The index is measured against the newest pinned snapshot of the feed the trigger names, on this answer and on every read.',
  params: { type: 'object', properties: { id: { type: 'string', description: 'The structure\'s id.' } }, required: ['id'] },
  body: {
    type: ['object', 'null'],
    additionalProperties: false,
    description: 'Optional: {"label", "in_force": {"from", "to"}}; no in_force takes the structure\'s period.',
    properties: {
      label: { type: 'string', minLength: 1, maxLength: 200, description: 'Your name for the record.' },
      in_force: {
        type: 'object', additionalProperties: false, required: ['from', 'to'],
        description: 'The days the cover is in force (YYYY-MM-DD, both included); the structure\'s annual terms are measured within them.',
        properties: { from: DATE, to: DATE },
      },
    },
  },
  refusal: { body: 'monitoring request' },
  errors: ['invalid_request', 'not_found', 'unmonitorable_structure'],
  responses: { 201: { description: 'The record, measured.', schema: RECORD, headers: { Location: 'The record: /monitoring/{id}.' } } },
});

export const listMonitoring = operation({
  id: 'listMonitoring',
  summary: 'The key\'s monitoring records, newest first, each measured on this read',
  query: queryOf({
    limit: text('list-limit', 'Page size: default 50, ceiling 500.'),
    cursor: text(undefined, 'Where the page starts: copied from the previous page\'s page.next, never written by hand.'),
  }),
  errors: ['invalid_request'],
  responses: {
    200: {
      description: 'A page of records; follow page.next for the next.',
      schema: shape('A page of monitoring records.', {
        schema_version: STRING, records: { type: 'array', items: RECORD },
        page: shape('Paging: page.next is null on the last page.', { limit: INTEGER, next: NULLABLE_STRING }), links: LINKS,
      }),
    },
  },
});

export const readMonitoring = operation({
  id: 'readMonitoring',
  summary: 'A monitoring record, measured on this read',
  params: RECORD_PARAM,
  errors: ['not_found'],
  responses: { 200: { description: 'The record.', schema: RECORD } },
});

export const endMonitoring = operation({
  id: 'endMonitoring',
  summary: 'End a monitoring record (state ended; nothing more is delivered)',
  params: RECORD_PARAM,
  errors: ['not_found'],
  responses: { 200: { description: 'The record, ended.', schema: RECORD } },
});

const WEBHOOK: JsonSchema = shape('A webhook.', { id: STRING, url: STRING, description: NULLABLE_STRING, created_at: { type: 'string', format: 'date-time' }, links: LINKS });

export const addWebhook = operation({
  id: 'addWebhook',
  summary: 'Register a webhook on a monitoring record; its signing secret is shown once',
  description: 'The url must be https and public: refused (422 invalid_request, the reason in details) when it carries a user name or password, names a local host, or resolves to a private, loopback, link-local or otherwise non-public address. The address is checked again at every delivery, on the address actually connected to; redirects are not followed. The signing secret is kept sealed at rest under the environment\'s sealing key: an environment with none answers 503 server_error and stores nothing.',
  params: RECORD_PARAM,
  body: {
    type: 'object', additionalProperties: false, required: ['url'],
    properties: {
      url: { type: 'string', minLength: 1, maxLength: 2000, description: 'Where deliveries are POSTed.' },
      description: { type: 'string', maxLength: 500, description: 'Your note.' },
    },
  },
  refusal: { body: 'webhook registration' },
  errors: ['invalid_request', 'not_found'],
  responses: {
    201: {
      description: 'The webhook with its secret (whsec_ + base64), shown in this answer only.',
      schema: shape('A webhook as registered.', { schema_version: STRING, id: STRING, record_id: STRING, url: STRING, description: NULLABLE_STRING, created_at: STRING, secret: { type: 'string', pattern: '^whsec_' }, links: LINKS }, ['id', 'secret', 'url']),
      headers: { Location: 'The record\'s webhooks: /monitoring/{id}/webhooks.' },
    },
  },
});

const ATTEMPT = shape('One attempt.', { attempt: INTEGER, at: { type: 'string', format: 'date-time' }, duration_ms: INTEGER, http_status: { type: ['integer', 'null'] }, error: NULLABLE_STRING });

export const listWebhooks = operation({
  id: 'listWebhooks',
  summary: 'Every webhook on the record with its delivery log',
  description: 'Each delivery (webhook-id, event type, payload, status pending / delivered / failed, next attempt) with every attempt: its time, the receiver\'s HTTP status or the network error, and its duration; so a delivery that never arrived is visible.',
  params: RECORD_PARAM,
  errors: ['not_found'],
  responses: {
    200: {
      description: 'The webhooks (never their secrets) and their deliveries.',
      schema: shape('Webhooks and delivery log.', {
        schema_version: STRING, record_id: STRING, links: LINKS,
        webhooks: { type: 'array', items: { ...WEBHOOK, properties: { ...(WEBHOOK.properties as object), deliveries: { type: 'array', items: shape('A delivery.', { id: STRING, event_type: STRING, status: { enum: ['pending', 'delivered', 'failed'] }, created_at: STRING, next_attempt_at: NULLABLE_STRING, payload: OBJECT, attempts: { type: 'array', items: ATTEMPT } }) } } } },
      }),
    },
  },
});

export const removeWebhook = operation({
  id: 'removeWebhook',
  summary: 'Remove a webhook and its delivery log (pending retries stop)',
  params: { type: 'object', properties: { id: { type: 'string', description: 'The monitoring record\'s id.' }, webhook_id: { type: 'string', description: 'The webhook\'s id (wh_...).' } }, required: ['id', 'webhook_id'] },
  errors: ['not_found'],
  responses: { 204: { description: 'Removed.' } },
});

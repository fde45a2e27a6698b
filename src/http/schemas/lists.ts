// The lists of an account's resources: newest first, cursor-paged (limit default 50, ceiling 500),
// each item a summary with links.self. Filters are exact values; an unknown one is refused by name.
import { JOB_STATES, JOB_VERBS } from '../../app/jobs.js';
import { LAB_LANES } from '../../app/lab-lanes.js';
import { INPUT_KIND_NAMES } from '../../app/lab-inputs.js';
import { riskObjectSchema } from '../../schemas.js';
import { INTEGER, JOB_SUBJECT, LINKS, STRING, operation, queryOf, shape, text, type JsonSchema } from './operation.js';

const PERILS = ((riskObjectSchema.$defs as any).peril.properties.code.enum as string[]);
const OBJECT_STATES = ((riskObjectSchema.properties as any).status.enum as string[]);

const PAGING = {
  limit: text('list-limit', 'Page size: default 50, ceiling 500.'),
  cursor: text(undefined, 'Where the page starts: copied from the previous page\'s page.next, never written by hand.'),
};

const oneOf = (values: readonly string[], description: string): JsonSchema => ({ type: 'string', enum: [...values], description });
const NULLABLE_STRING = { type: ['string', 'null'] } as const;
const TIME = { type: 'string', format: 'date-time' } as const;

/** A page of a list: its items under `member`, page.next (null at the end) and links.self. */
function page(member: string, what: string, item: JsonSchema): Record<number, { description: string; schema: JsonSchema }> {
  return {
    200: {
      description: `A page of ${what}, newest first; follow page.next for the next.`,
      schema: shape(`A page of ${what}.`, {
        schema_version: STRING,
        [member]: { type: 'array', items: item },
        page: shape('Paging: page.next is null on the last page.', { limit: INTEGER, next: NULLABLE_STRING }),
        links: LINKS,
      }),
    },
  };
}

export const listObjects = operation({
  id: 'listObjects',
  summary: 'The key\'s risk objects, newest first (summaries; GET each for the whole object)',
  query: queryOf({
    status: oneOf(OBJECT_STATES, 'Only objects in this status.'),
    peril: oneOf(PERILS, 'Only objects whose peril.code is this.'),
    created_from: text('instant', 'Created at or after (a bare date is midnight UTC).'),
    created_to: text('instant', 'Created before.'),
    ...PAGING,
  }),
  errors: ['invalid_request'],
  responses: page('objects', 'objects', shape('An object\'s summary.', {
    id: STRING, status: STRING, peril: NULLABLE_STRING, locations: { type: ['integer', 'null'] }, source: NULLABLE_STRING,
    version: INTEGER, size: INTEGER, created_at: TIME, updated_at: TIME, links: LINKS,
  })),
});

export const listJobs = operation({
  id: 'listJobs',
  summary: 'The key\'s jobs, newest first (without results; GET each for its result or error)',
  query: queryOf({
    verb: oneOf(JOB_VERBS, 'Only jobs of this verb.'),
    status: oneOf(JOB_STATES, 'Only jobs in this state.'),
    ...PAGING,
  }),
  errors: ['invalid_request'],
  responses: page('jobs', 'jobs', shape('A job\'s summary.', {
    id: STRING, verb: STRING, status: oneOf(JOB_STATES, 'The job\'s state.'), attempts: INTEGER,
    created_at: TIME, updated_at: TIME, started_at: { type: ['string', 'null'] }, finished_at: { type: ['string', 'null'] },
    subject: JOB_SUBJECT, links: LINKS,
  }, ['id', 'verb', 'status', 'attempts', 'created_at', 'updated_at', 'started_at', 'finished_at', 'links'])),
});

export const listStructures = operation({
  id: 'listStructures',
  summary: 'The key\'s structures, newest first',
  query: queryOf(PAGING),
  errors: ['invalid_request'],
  responses: page('structures', 'structures', shape('A structure\'s summary.', {
    id: STRING, object_id: STRING, peril: NULLABLE_STRING, created_at: TIME, links: LINKS,
  })),
});

export const listBacktests = operation({
  id: 'listBacktests',
  summary: 'The key\'s stored backtests, newest first (GET each for the artifact)',
  query: queryOf(PAGING),
  errors: ['invalid_request'],
  responses: page('backtests', 'backtests', shape('A backtest\'s summary.', {
    id: STRING, peril: NULLABLE_STRING,
    feed: { type: ['object', 'null'], properties: { feed_id: STRING, version: NULLABLE_STRING } },
    window: shape('The years replayed.', { from_year: { type: ['integer', 'null'] }, to_year: { type: ['integer', 'null'] } }),
    created_at: TIME, links: LINKS,
  })),
});

export const listRuns = operation({
  id: 'listRuns',
  summary: 'The lab runs the key submitted, newest first (by when the key first submitted each)',
  query: queryOf({
    model: oneOf(LAB_LANES.map((m) => m.id), 'Only runs of this model.'),
    status: oneOf(JOB_STATES, 'Only runs in this state.'),
    ...PAGING,
  }),
  errors: ['invalid_request'],
  responses: page('runs', 'lab runs', shape('A run\'s summary.', {
    id: STRING, model: NULLABLE_STRING, status: oneOf(JOB_STATES, 'As the run states it.'), created_at: TIME, links: LINKS,
  })),
});

export const listInputs = operation({
  id: 'listLabInputs',
  summary: 'The inputs the key brought to the lab, newest first (by when the key first brought each)',
  query: queryOf({
    kind: oneOf(INPUT_KIND_NAMES, 'Only inputs of this kind.'),
    ...PAGING,
  }),
  errors: ['invalid_request'],
  responses: page('inputs', 'lab inputs', shape('An input\'s summary (GET it for the reader\'s summary).', {
    id: STRING, kind: STRING, sha256: STRING, bytes: INTEGER, created_at: TIME, links: LINKS,
  })),
});

// catrisk ingest FILE: the schedule sent as POST /ingest's multipart form (part file, optional
// part currency, and an OED set's other files as the parts account, ri_info and ri_scope); the job
// it starts is followed.
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { keyOf, request, urlOf, usageFailure } from '../client.js';
import type { Command } from '../command.js';
import { followJob } from './jobs.js';

/** An OED set's other files: option → the form part POST /ingest reads it from. */
const OED_PARTS = { account: 'account', 'ri-info': 'ri_info', 'ri-scope': 'ri_scope' } as const;

async function readPart(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw usageFailure(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** The file part's media type by its extension; anything else is sent as bytes for the service to sniff. */
const MEDIA_TYPES: Record<string, string> = {
  '.csv': 'text/csv', '.tsv': 'text/tab-separated-values', '.txt': 'text/plain', '.psv': 'text/plain',
  '.jsonl': 'application/x-ndjson', '.ndjson': 'application/x-ndjson', '.json': 'application/json',
};

export const ingest: Command = {
  name: ['ingest'],
  args: 'FILE',
  summary: 'Ingest a schedule of locations (POST /ingest) into a risk object.',
  help: [
    '  --currency CODE    ISO 4217 code for a schedule stating no currency',
    '  --account FILE     with an OED location file: its account file (policies and their terms)',
    '  --ri-info FILE     with an OED location file: its reinsurance contracts (ri_info; needs --ri-scope)',
    '  --ri-scope FILE    with an OED location file: the contracts\' scope (ri_scope; needs --ri-info)',
    '  --idempotency-key KEY  send again without ingesting twice',
    '',
    'Prints the job; with --wait, the finished job (result.objects[] names the object made).',
    'An object ingested with its OED set keeps its terms: the lab\'s loss lanes apply them (perspectives il and ri).',
  ],
  options: { currency: { type: 'string' }, account: { type: 'string' }, 'ri-info': { type: 'string' }, 'ri-scope': { type: 'string' }, 'idempotency-key': { type: 'string' } },
  positionals: 1,
  waits: true,
  refuses: ({ format }) => (format === 'csv' ? 'An ingest job is not served as CSV; an object\'s locations are, as an OED file: catrisk get /objects/ID/locations?format=oed' : undefined),
  async run(context) {
    const key = keyOf(context.endpoint);
    const path = context.positionals[0]!;
    const bytes = await readPart(path);
    const form = new FormData();
    const type = MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    form.append('file', new Blob([bytes], { type }), basename(path));
    if (context.values.currency !== undefined) form.append('currency', context.values.currency as string);
    // The OED set's other files, each its own part; the service refuses ri_info without ri_scope (422).
    for (const [option, part] of Object.entries(OED_PARTS)) {
      const file = context.values[option];
      if (typeof file !== 'string') continue;
      const partType = MEDIA_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      form.append(part, new Blob([await readPart(file)], { type: partType }), basename(file));
    }
    const answer = await request('POST', urlOf(context.endpoint.api, '/ingest'), {
      key, form, idempotencyKey: context.values['idempotency-key'] as string | undefined,
    });
    await followJob(context, answer);
  },
};

// catrisk ingest FILE: the schedule sent as POST /ingest's multipart form (part file, optional
// part currency); the job it starts is followed.
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { keyOf, request, urlOf, usageFailure } from '../client.js';
import type { Command } from '../command.js';
import { followJob } from './jobs.js';

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
    '  --idempotency-key KEY  send again without ingesting twice',
    '',
    'Prints the job; with --wait, the finished job (result.objects[] names the object made).',
  ],
  options: { currency: { type: 'string' }, 'idempotency-key': { type: 'string' } },
  positionals: 1,
  waits: true,
  refuses: ({ format }) => (format === 'csv' ? 'An ingest job is not served as CSV; an object\'s locations are, as an OED file: catrisk get /objects/ID/locations?format=oed' : undefined),
  async run(context) {
    const key = keyOf(context.endpoint);
    const path = context.positionals[0]!;
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      throw usageFailure(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const form = new FormData();
    const type = MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    form.append('file', new Blob([bytes], { type }), basename(path));
    if (context.values.currency !== undefined) form.append('currency', context.values.currency as string);
    const answer = await request('POST', urlOf(context.endpoint.api, '/ingest'), {
      key, form, idempotencyKey: context.values['idempotency-key'] as string | undefined,
    });
    await followJob(context, answer);
  },
};

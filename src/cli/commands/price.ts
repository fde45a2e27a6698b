// catrisk price OBJECT_ID: a technical price of the object's terms (POST /objects/{id}/price), a job.
import { answered, clientsOf, keyOf } from '../client.js';
import type { Command } from '../command.js';
import { followJob } from './jobs.js';

export const price: Command = {
  name: ['price'],
  args: 'OBJECT_ID',
  summary: 'Price an object\'s structure (POST /objects/{id}/price): its technical premium, every assumption named.',
  help: [
    '  --idempotency-key KEY  send again without pricing twice',
    '',
    'Prints the job; with --wait, the finished job with the price as its result.',
  ],
  options: { 'idempotency-key': { type: 'string' } },
  positionals: 1,
  waits: true,
  refuses: ({ format }) => (format === 'csv' ? 'A price is not served as CSV: use --format json or table.' : undefined),
  async run(context) {
    const key = keyOf(context.endpoint);
    const idempotencyKey = context.values['idempotency-key'];
    const { answer } = await answered(clientsOf(context.endpoint, key).api.POST('/objects/{id}/price', {
      params: { path: { id: context.positionals[0]! }, header: typeof idempotencyKey === 'string' ? { 'Idempotency-Key': idempotencyKey } : {} },
      body: {},
    }));
    await followJob(context, answer);
  },
};

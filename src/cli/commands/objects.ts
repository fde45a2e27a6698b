// catrisk terms OBJECT_ID --file FILE: writes an object's terms (PATCH /objects/{id}), each block
// in the file replacing the object's block of that name whole, as the API does.
import { keyOf, request, urlOf, usageFailure } from '../client.js';
import { print, type Command } from '../command.js';
import { jsonFile } from '../json-file.js';

export const terms: Command = {
  name: ['terms'],
  args: 'OBJECT_ID',
  summary: 'Write an object\'s terms (PATCH /objects/{id}): peril, trigger, financial_structure, period...',
  help: [
    '  --file FILE        JSON of the blocks to write, e.g. {"trigger": {...}, "period": {...}}',
    '  --if-match ETAG    write only if the object is still at this version (its ETag); 412 otherwise',
    '',
    'Prints the object as written; a price it held from terms now moved is removed (SPEC).',
  ],
  options: { file: { type: 'string' }, 'if-match': { type: 'string' } },
  positionals: 1,
  refuses: ({ format }) => (format === 'csv' ? 'An object is not served as CSV here: use --format json, table or id.' : undefined),
  async run(context) {
    const key = keyOf(context.endpoint);
    if (typeof context.values.file !== 'string') throw usageFailure('catrisk terms needs --file FILE: the JSON blocks to write.');
    const blocks = await jsonFile(context.values.file);
    const objectId = encodeURIComponent(context.positionals[0]!);
    const answer = await request('PATCH', urlOf(context.endpoint.api, `/objects/${objectId}`), {
      key, body: blocks, ifMatch: context.values['if-match'] as string | undefined,
    });
    print(context, answer.json);
  },
};

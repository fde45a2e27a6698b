// The docs host's page of the lab's models, generated from the lanes' declarations
// (domain/lab/lanes/<lane>/lane.ts): each model's spec members with their JSON Schema and words,
// its caps, the pinned inputs it reads and its result's members. GET {lab_url}/models lists the
// same members with what is pinned on the service answering.
import { LAB_LANES } from '../app/lab-lanes.js';
import type { JsonSchemaFragment, LabLane } from '../domain/lab/lane.js';
import type { InputDeclaration } from '../domain/lab/inputs.js';

/** A table cell: one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (schema: JsonSchemaFragment) => `\`${cell(JSON.stringify(schema))}\``;

function inputLine(name: string, input: InputDeclaration): string {
  const source = input.source;
  const where = 'family' in source
    ? `every pinned snapshot of the ${source.family.replace(/_/g, ' ')} the feed catalog recognises`
    : 'pin' in source
      ? `${source.pin.feed_id} ${source.pin.version}${source.pin.file ? ` (${source.pin.file})` : ''}`
      : `one of ${Object.entries(source.pins).map(([key, pin]) => `${key}: ${pin!.feed_id} ${pin!.version}`).join('; ')}, picked by the spec`;
  return `- \`${name}\`: ${where}; read by ${input.reader}`;
}

function laneSection(lane: LabLane): string[] {
  const members: Array<[string, JsonSchemaFragment, string]> = [
    ['model', { const: lane.id }, 'this identifier'],
    ...Object.entries(lane.members).map(([name, m]): [string, JsonSchemaFragment, string] => [name, m.schema, m.description]),
    ...(lane.exposure ? [['exposure', lane.exposure.schema, lane.exposure.description] as [string, JsonSchemaFragment, string]] : []),
  ];
  const result = lane.result as { required?: string[] };
  return [
    `## \`${lane.id}\``,
    '',
    `Lane ${lane.lane} (engine ${lane.engine}), version ${lane.version}. ${lane.label}`,
    '',
    '| member | JSON Schema | what it says |',
    '| --- | --- | --- |',
    ...members.map(([name, schema, words]) => `| \`${name}\` | ${code(schema)} | ${cell(words)} |`),
    '',
    ...Object.entries(lane.notes ?? {}).map(([name, words]) => `- ${name}: ${words}`),
    `- caps: ${code(lane.caps)}`,
    '',
    'Pinned inputs:',
    '',
    ...Object.entries(lane.inputs as Record<string, InputDeclaration>).map(([name, input]) => inputLine(name, input)),
    '',
    `Result members: ${(result.required ?? []).map((m) => `\`${m}\``).join(', ')} (the contract's shape of the run's result).`,
    '',
  ];
}

export function labModelsPage(): { name: string; title: string; markdown: string } {
  const title = 'Lab models: spec members, caps and pinned inputs';
  const markdown = [
    `# ${title}`,
    '',
    'Generated from the lanes\' declarations. A spec is `{model, exposure, ...}` with the members of its model below; '
      + 'each member is checked by the model\'s lane, which names every fault at once. GET {lab_url}/models lists the same members with the pinned inputs this service holds.',
    '',
    ...LAB_LANES.flatMap(laneSection),
  ].join('\n');
  return { name: 'lab-models', title, markdown };
}

// A JSON file a command reads (a terms file, a run spec): a file that cannot be read, or is not
// JSON, is a usage failure naming it.
import { readFile } from 'node:fs/promises';
import { usageFailure } from './client.js';

export async function jsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw usageFailure(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw usageFailure(`${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

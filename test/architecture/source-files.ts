// What the architecture tests read: the modules under src/ and their import lines.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

export interface ModuleImport { readonly file: string; readonly specifier: string; readonly line: number; readonly typeOnly: boolean }

/** Every TypeScript module under `dir`. */
export function sources(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every static import, export-from and dynamic import of a module (type-only ones too). */
export function importsOf(file: string, text: string): ModuleImport[] {
  const found: ModuleImport[] = [];
  const pattern = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(pattern)) {
    const specifier = m[1] ?? m[2] ?? m[3]!;
    const start = m.index + m[0].search(/\S/);
    // `import type` and `export type` vanish from the built code; `import { type X }` may not.
    const typeOnly = /^(?:import|export)\s+type\s/.test(m[0].slice(m[0].search(/\S/)));
    found.push({ file, specifier, line: text.slice(0, start).split('\n').length, typeOnly });
  }
  return found;
}

/** The source module a relative specifier names (`./x.js` is `./x.ts`), or undefined for a package or another file. */
export function moduleOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const path = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
  return path.endsWith('.ts') && existsSync(path) ? path : undefined;
}

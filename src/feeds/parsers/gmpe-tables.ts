// OpenQuake's GMPE verification tables (hazardlib/tests/gsim/data): CSV, a header row, then one
// scenario per row. Columns rup_*, dist_* and site_* are the inputs, result_type names what the row
// holds (MEAN medians in linear units, or a standard deviation in ln units; one type per file),
// damping is 5 (% critical), and every following column is one intensity measure: pga, pgv, or a
// bare number = the SA period in seconds (0.01, 0.010 and 0.0100 are one period). Quirks read as
// the manifest names them: a trailing empty column headed "Unnamed: 38", a leading unnamed index
// column, numbers written 5, 5.0 or 1.49601781e-01. What model a file was made for, with which
// arguments, and its tolerance come from the file's manifest entry.
import type { Imt } from '../../domain/hazard/gmpe/types.js';
import type { ResultType, VerificationRow, VerificationTable } from '../../domain/hazard/gmpe/verification.js';

const RESULT_TYPES: readonly ResultType[] = ['MEAN', 'TOTAL_STDDEV', 'INTER_EVENT_STDDEV', 'INTRA_EVENT_STDDEV'];
const INPUT = /^(rup|dist|site)_/;

/** What a table's manifest entry says of it (files[] of the snapshot's MANIFEST.json). */
export interface GmpeTableFacts {
  readonly name: string;
  readonly gsim: string;
  readonly gsim_arguments: Readonly<Record<string, unknown>>;
  readonly result_type: string;
  readonly tolerance_percent: number | null;
}

/** The facts of a manifest file entry, or undefined when the entry does not describe a verification table. */
export function gmpeTableFacts(name: string, raw: Readonly<Record<string, unknown>>): GmpeTableFacts | undefined {
  if (typeof raw.gsim !== 'string' || typeof raw.result_type !== 'string') return undefined;
  const args = raw.gsim_arguments;
  const tol = raw.tolerance_percent;
  return {
    name,
    gsim: raw.gsim,
    gsim_arguments: args && typeof args === 'object' ? (args as Record<string, unknown>) : {},
    result_type: raw.result_type,
    tolerance_percent: typeof tol === 'number' ? tol : null,
  };
}

function imtOf(header: string, where: string): Imt {
  const h = header.trim().toLowerCase();
  if (h === 'pga') return { kind: 'PGA' };
  if (h === 'pgv') return { kind: 'PGV' };
  const period = Number(h);
  if (h === '' || !Number.isFinite(period) || period <= 0) throw new Error(`${where}: column "${header}" is not an intensity measure`);
  return { kind: 'SA', period };
}

export function parseGmpeTable(text: string, facts: GmpeTableFacts): VerificationTable {
  const where = facts.name;
  const resultType = RESULT_TYPES.find((t) => t === facts.result_type);
  if (!resultType) throw new Error(`${where}: result type ${facts.result_type} is not one of ${RESULT_TYPES.join(', ')}`);
  const lines = text.split(/\r?\n/);
  const header = lines[0]!.split(',').map((h) => h.trim());
  const typeAt = header.indexOf('result_type');
  const dampingAt = header.indexOf('damping');
  if (typeAt < 0 || dampingAt !== typeAt + 1) throw new Error(`${where}: header has no result_type followed by damping`);
  const inputs = header.flatMap((h, i) => (i < typeAt && INPUT.test(h) ? [{ h, i }] : []));
  const imts = header.flatMap((h, i) => (i > dampingAt && h !== '' && !h.startsWith('Unnamed') ? [{ imt: imtOf(h, where), i }] : []));
  const rows: VerificationRow[] = [];
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n]!;
    if (line.trim() === '') continue;
    const cells = line.split(',');
    const at = `${where} line ${n + 1}`;
    if (cells[typeAt]!.trim() !== resultType) throw new Error(`${at}: result_type ${cells[typeAt]} in a ${resultType} table`);
    const values = imts.map(({ imt, i }) => {
      const v = Number(cells[i]);
      if (cells[i] === undefined || cells[i]!.trim() === '' || !Number.isFinite(v)) throw new Error(`${at}: value "${cells[i]}" is not a number`);
      return { imt, expected: v };
    });
    const row: Record<string, number | string> = {};
    for (const { h, i } of inputs) {
      const cell = (cells[i] ?? '').trim();
      const v = Number(cell);
      row[h] = cell !== '' && Number.isFinite(v) ? v : cell;
    }
    rows.push({ inputs: row, values, line: n + 1 });
  }
  return { name: facts.name, gsim: facts.gsim, gsim_arguments: facts.gsim_arguments, result_type: resultType, tolerance_percent: facts.tolerance_percent, rows };
}

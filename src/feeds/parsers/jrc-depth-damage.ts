// The JRC global flood depth-damage tables (Huizinga et al. 2017) as processed by Deltares
// HydroMT-FIAT: JRC_damage_functions.csv (continent, type, then one column per depth "0.00m".."10.00m",
// damage fraction 0-1) and JRC_base_damage_values.csv (country, ISO A3, construction cost per m2 in
// 2010 EUR for residential, commercial and industrial buildings, GDP per capita). A UTF-8 BOM is read.
import { readCsv } from '../records.js';

export interface JrcCurveRecord {
  readonly continent: string;
  readonly type: string;
  /** Depths in metres, ascending, read from the column names. */
  readonly depths: number[];
  readonly fractions: number[];
}

export interface JrcCountryRecord {
  readonly country: string;
  /** ISO 3166 alpha-3; null for the aggregates (regions, income groups). */
  readonly iso_a3: string | null;
  /** Construction cost per m2, 2010 EUR. */
  readonly residential: number;
  readonly commercial: number;
  readonly industrial: number;
  readonly gdp_per_capita_usd: number | null;
}

function number(text: string, where: string): number {
  const v = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(v)) throw new Error(`${where}: ${JSON.stringify(text)} is not a number`);
  return v;
}

export function parseJrcDamageFunctions(text: string): JrcCurveRecord[] {
  const csv = readCsv(text);
  const [c, t, ...depthColumns] = csv.header;
  if (c?.trim() !== 'continent' || t?.trim() !== 'type') throw new Error('not the JRC damage functions: header lacks continent, type');
  const depths = depthColumns.map((name) => {
    const m = /^(\d+(?:\.\d+)?)m$/.exec(name.trim());
    if (!m) throw new Error(`not the JRC damage functions: column ${JSON.stringify(name)} is not a depth`);
    return Number(m[1]);
  });
  for (let i = 1; i < depths.length; i++) if (!(depths[i]! > depths[i - 1]!)) throw new Error('JRC damage functions: depth columns do not ascend');
  return csv.rows.map((row) => {
    if (row.values.length !== csv.header.length) throw new Error(`JRC damage functions line ${row.line}: ${row.values.length} fields, header has ${csv.header.length}`);
    const [continent, type, ...values] = row.values;
    return {
      continent: continent!.trim(), type: type!.trim(), depths,
      fractions: values.map((v, i) => number(v, `JRC damage functions line ${row.line}, ${depthColumns[i]}`)),
    };
  });
}

export function parseJrcBaseDamageValues(text: string): JrcCountryRecord[] {
  const csv = readCsv(text);
  const col = (phrase: RegExp) => {
    const i = csv.header.findIndex((h) => phrase.test(h));
    if (i < 0) throw new Error(`not the JRC base damage values: no column ${phrase}`);
    return i;
  };
  const [country, iso, res, com, ind, gdp] = [col(/^Country$/), col(/ISO A3/), col(/Residential/), col(/Commercial/), col(/Industrial/), col(/GDP/)];
  return csv.rows.map((row) => {
    const v = row.values;
    const where = `JRC base damage values line ${row.line}`;
    return {
      country: v[country]!.trim(),
      iso_a3: v[iso]!.trim() === '' ? null : v[iso]!.trim(),
      residential: number(v[res]!, where),
      commercial: number(v[com]!, where),
      industrial: number(v[ind]!, where),
      gdp_per_capita_usd: (v[gdp] ?? '').trim() === '' ? null : number(v[gdp]!, where),
    };
  });
}

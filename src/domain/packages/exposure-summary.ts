// The exposure summary of a submission pack: totals per coverage part and currency, counts, the
// geographic spread, the largest locations and the source fidelity in brief, read from the
// object's exposure block. Money is summed exactly (decimal strings as ten-thousandths of the
// unit, written with the currency's ISO 4217 decimals), never as binary floats. Pure.
import { COVERAGE_PARTS, type ScheduleLocation } from '../exposure/types.js';
import { UNIT_DECIMALS, formatUnits, minorUnits } from '../exposure/minor-units.js';

/** How many of the largest locations the summary lists. */
export const LARGEST_LOCATIONS = 10;
/** How many countries (as the addresses give them) the spread lists by name. */
const COUNTRIES_LISTED = 12;

const PARTS = [...COVERAGE_PARTS, 'total'] as const;
type Part = (typeof PARTS)[number];

/** A money string ("1200000.50") as ten-thousandths of its unit. */
function units(money: string): bigint {
  const negative = money.startsWith('-');
  const [whole, fraction = ''] = (negative ? money.slice(1) : money).split('.');
  const value = BigInt(whole!) * 10n ** BigInt(UNIT_DECIMALS) + BigInt((fraction + '0000').slice(0, UNIT_DECIMALS));
  return negative ? -value : value;
}

/** One currency's sums: how many locations carry it and the sum of each coverage part they state. */
export type ExposureTotals = { readonly currency: string; readonly locations: number } & Partial<Record<Part, string>>;

export interface ExposureSummary {
  readonly kind: 'exposure_summary';
  readonly title: string;
  readonly counts: {
    readonly locations: number;
    readonly with_coordinates: number;
    readonly without_coordinates: number;
    readonly with_total_value: number;
    readonly occupancy_coded: number;
    readonly construction_coded: number;
    readonly with_year_built: number;
  };
  /** Sums of the locations' values per currency (the code the rows carry, or "unknown"), per coverage part. */
  readonly totals: readonly ExposureTotals[];
  /** The schedule totals the object states (exposure.values) and its currency. */
  readonly stated_totals: { readonly currency: string | null; readonly values: Record<string, unknown> };
  readonly geographic_spread: {
    readonly bounding_box: { readonly min_latitude: number; readonly max_latitude: number; readonly min_longitude: number; readonly max_longitude: number } | null;
    readonly countries: readonly { readonly country: string; readonly locations: number }[];
    readonly countries_not_listed: number;
    readonly locations_without_country: number;
  };
  /** The currency the largest locations are ranked in: the object's, else the one most rows carry (amounts in different currencies are never compared). */
  readonly largest_locations_currency: string | null;
  readonly largest_locations: readonly {
    readonly rank: number;
    readonly ref: string | null;
    readonly place: string;
    readonly latitude: number | null;
    readonly longitude: number | null;
    readonly total: string;
    readonly currency: string;
  }[];
  readonly source_fidelity: {
    readonly encoding: string | null;
    readonly unmapped_columns: readonly string[];
    readonly guessed_units: readonly string[];
    readonly ambiguous_rows: number;
    readonly totals_rows: { readonly read: number; readonly matched: number };
    readonly source_files: readonly { readonly name: string; readonly sha256: string }[];
  };
}

interface Fidelity {
  encoding?: string;
  unmapped_columns?: { column: string }[];
  guessed_units?: { field: string; unit: string; source: string }[];
  ambiguous_rows?: unknown[];
  totals_rows?: { matched: boolean }[];
}

function place(l: ScheduleLocation): string {
  const a = l.address ?? {};
  return [a.city, a.area, a.country].filter((p): p is string => typeof p === 'string' && p.length > 0).join(', ') || (a.street ?? '');
}

export function exposureSummary(object: Record<string, unknown>): ExposureSummary {
  const exposure = (object.exposure ?? {}) as { locations?: ScheduleLocation[]; values?: Record<string, unknown>; currency?: string; source_fidelity?: Fidelity };
  const locations = exposure.locations ?? [];
  const objectCurrency = exposure.currency ?? null;
  const sums = new Map<string, { locations: number; parts: Map<Part, bigint> }>();
  const countries = new Map<string, number>();
  let withoutCountry = 0;
  let box: { min_latitude: number; max_latitude: number; min_longitude: number; max_longitude: number } | null = null;
  const counts = { locations: locations.length, with_coordinates: 0, without_coordinates: 0, with_total_value: 0, occupancy_coded: 0, construction_coded: 0, with_year_built: 0 };
  const all: { index: number; total: bigint; currency: string }[] = [];

  locations.forEach((l, index) => {
    const currency = l.currency ?? objectCurrency ?? 'unknown';
    let entry = sums.get(currency);
    if (!entry) sums.set(currency, entry = { locations: 0, parts: new Map() });
    entry.locations += 1;
    for (const part of PARTS) {
      const v = l.values?.[part];
      if (typeof v === 'string') entry.parts.set(part, (entry.parts.get(part) ?? 0n) + units(v));
    }
    if (typeof l.values?.total === 'string') {
      counts.with_total_value += 1;
      all.push({ index, total: units(l.values.total), currency });
    }
    if (typeof l.latitude === 'number' && typeof l.longitude === 'number') {
      counts.with_coordinates += 1;
      box = box === null
        ? { min_latitude: l.latitude, max_latitude: l.latitude, min_longitude: l.longitude, max_longitude: l.longitude }
        : { min_latitude: Math.min(box.min_latitude, l.latitude), max_latitude: Math.max(box.max_latitude, l.latitude), min_longitude: Math.min(box.min_longitude, l.longitude), max_longitude: Math.max(box.max_longitude, l.longitude) };
    } else counts.without_coordinates += 1;
    if (l.occupancy?.code != null) counts.occupancy_coded += 1;
    if (l.construction?.code != null) counts.construction_coded += 1;
    if (l.year_built != null) counts.with_year_built += 1;
    const country = l.address?.country;
    if (country) countries.set(country, (countries.get(country) ?? 0) + 1);
    else withoutCountry += 1;
  });

  const totals = [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([currency, entry]) => {
    const decimals = minorUnits(currency === 'unknown' ? null : currency);
    const row: Record<string, unknown> = { currency, locations: entry.locations };
    for (const part of PARTS) { const s = entry.parts.get(part); if (s !== undefined) row[part] = formatUnits(s, decimals); }
    return row as ExposureTotals;
  });
  // Largest first, in one currency; equal totals in schedule order (the same object, the same list).
  const rankedIn = objectCurrency ?? ([...sums.entries()].sort(([a, x], [b, y]) => y.locations - x.locations || (a < b ? -1 : a > b ? 1 : 0))[0]?.[0] ?? null);
  const ranked = all.filter((r) => r.currency === rankedIn);
  ranked.sort((a, b) => (a.total === b.total ? a.index - b.index : a.total > b.total ? -1 : 1));
  const largest = ranked.slice(0, LARGEST_LOCATIONS).map((r, i) => {
    const l = locations[r.index]!;
    return { rank: i + 1, ref: l.ref, place: place(l), latitude: l.latitude, longitude: l.longitude, total: l.values.total!, currency: r.currency };
  });
  const byCountry = [...countries.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  const fidelity = exposure.source_fidelity ?? {};
  const files = ((object.provenance as { source_files?: { name: string; sha256: string }[] } | undefined)?.source_files ?? []);
  return {
    kind: 'exposure_summary',
    title: 'Exposure summary',
    counts,
    totals,
    stated_totals: { currency: objectCurrency, values: exposure.values ?? {} },
    geographic_spread: {
      bounding_box: box,
      countries: byCountry.slice(0, COUNTRIES_LISTED).map(([country, n]) => ({ country, locations: n })),
      countries_not_listed: Math.max(0, byCountry.length - COUNTRIES_LISTED),
      locations_without_country: withoutCountry,
    },
    largest_locations_currency: rankedIn,
    largest_locations: largest,
    source_fidelity: {
      encoding: fidelity.encoding ?? null,
      unmapped_columns: (fidelity.unmapped_columns ?? []).map((c) => c.column),
      guessed_units: (fidelity.guessed_units ?? []).map((g) => `${g.field}: ${g.unit} (${g.source})`),
      ambiguous_rows: (fidelity.ambiguous_rows ?? []).length,
      totals_rows: { read: (fidelity.totals_rows ?? []).length, matched: (fidelity.totals_rows ?? []).filter((t) => t.matched).length },
      source_files: files.map((f) => ({ name: f.name, sha256: f.sha256 })),
    },
  };
}

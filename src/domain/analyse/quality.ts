// exposure_quality: how much of a schedule's value carries what a model reads (coordinates,
// occupancy and construction codes, year built), the rows ingest flagged, and duplicate locations.
// Fed a batch of locations at a time. Pure.
import { canonicalJson } from '../../kernel/canonical-json.js';
import { decimalUnits } from '../accumulation/amounts.js';
import { formatUnits, minorUnits } from '../exposure/minor-units.js';
import type { ScheduleLocation } from '../exposure/types.js';

const FIELDS = ['coordinates', 'occupancy_code', 'construction_code', 'year_built'] as const;
type Field = (typeof FIELDS)[number];

const has: Record<Field, (l: ScheduleLocation) => boolean> = {
  coordinates: (l) => typeof l.latitude === 'number' && typeof l.longitude === 'number',
  occupancy_code: (l) => typeof l.occupancy?.code === 'number',
  construction_code: (l) => typeof l.construction?.code === 'number',
  year_built: (l) => typeof l.year_built === 'number',
};

interface Tally { total: bigint; with: Record<Field, bigint> }

export class ExposureQuality {
  private locations = 0;
  private unvalued = 0;
  private readonly counts: Record<Field, number> = { coordinates: 0, occupancy_code: 0, construction_code: 0, year_built: 0 };
  private readonly byCurrency = new Map<string, Tally>();
  /** Located locations by coordinates and address: the first index and every index after. */
  private readonly seen = new Map<string, number[]>();
  private readonly refs: Array<string | null> = [];

  constructor(private readonly currency: string | null) {}

  add(batch: readonly ScheduleLocation[]): void {
    for (const l of batch) {
      const index = this.locations;
      this.locations += 1;
      const units = decimalUnits(l.values?.total);
      const currency = l.currency ?? this.currency ?? '';
      let tally: Tally | undefined;
      if (units === null) this.unvalued += 1;
      else {
        tally = this.byCurrency.get(currency);
        if (!tally) this.byCurrency.set(currency, tally = { total: 0n, with: { coordinates: 0n, occupancy_code: 0n, construction_code: 0n, year_built: 0n } });
        tally.total += units;
      }
      for (const f of FIELDS) {
        if (!has[f](l)) continue;
        this.counts[f] += 1;
        if (tally) tally.with[f] += units!;
      }
      if (has.coordinates(l)) {
        const key = canonicalJson({ latitude: l.latitude, longitude: l.longitude, address: l.address ?? {} });
        const list = this.seen.get(key);
        if (list) list.push(index);
        else this.seen.set(key, [index]);
        this.refs[index] = l.ref;
      }
    }
  }

  result(fidelity: Record<string, unknown> | undefined): Record<string, unknown> {
    const n = this.locations;
    const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
    const ambiguous = list(fidelity?.ambiguous_rows);
    return {
      locations: n,
      unvalued_locations: this.unvalued,
      counts: Object.fromEntries(FIELDS.map((f) => [f, { locations: this.counts[f], share: n > 0 ? this.counts[f] / n : null }])),
      by_currency: [...this.byCurrency.keys()].sort().map((c) => {
        const t = this.byCurrency.get(c)!;
        const decimals = minorUnits(c || null);
        return {
          currency: c || null,
          total: formatUnits(t.total, decimals),
          share_of_value: Object.fromEntries(FIELDS.map((f) => [f, {
            value: formatUnits(t.with[f], decimals),
            share: t.total > 0n ? Number(t.with[f]) / Number(t.total) : null,
          }])),
        };
      }),
      source_fidelity: {
        ambiguous_rows: ambiguous.length,
        flagged_rows: ambiguous,
        unmapped_columns: list(fidelity?.unmapped_columns).map((c) => (c as { column?: unknown }).column ?? null),
        guessed_units: list(fidelity?.guessed_units),
      },
      duplicates: [...this.seen.values()].filter((g) => g.length > 1)
        .map((g) => ({ locations: g.map((i) => ({ index: i, ref: this.refs[i] ?? null })) })),
      notes: [
        'share_of_value: the share of the total value (per currency, never converted) held by locations with the field; counts: the share of locations',
        'duplicates: located locations with the same coordinates and the same address as given; index is the position in exposure.locations',
      ],
    };
  }
}

// Storm-report and wildfire summary near a point: reports within a radius by value class, annual
// rates, the largest reports, and for fires the burned acres (DOMAIN.md "Poisson-rate view").

import { haversineKm, type GeoPoint } from '../geo.js';
import { REPORT_UNITS, type ReportEvent, type ReportKind, type ReportUnit } from './records.js';
import {
  checkPoint, checkRadius, compareText, DISTANCE_METHOD, finiteOrNull, inRecord, rateNote, recordYears,
  type PointOut, type RecordYears, type YearSpan,
} from './summary-common.js';
import { LARGEST_LISTED } from './summary-quakes.js';

/** 25 km for hail, wind and tornado reports; 50 km for fires. */
export const REPORT_DEFAULT_RADIUS_KM: Readonly<Record<ReportKind, number>> = { hail: 25, wind: 25, tornado: 25, fire: 50 };


interface ClassDef {
  readonly label: string;
  /** Inclusive; null: no lower bound. */
  readonly min: number | null;
  /** Exclusive; null: no upper bound. */
  readonly max: number | null;
}

const range = (label: string, min: number | null, max: number | null): ClassDef => ({ label, min, max });

/** Half-open value classes [min, max) per kind, in the kind's unit. */
export const REPORT_CLASSES: Readonly<Record<ReportKind, readonly ClassDef[]>> = {
  hail: [range('< 1 in', null, 1), range('1–2 in', 1, 2), range('2–3 in', 2, 3), range('≥ 3 in', 3, null)],
  wind: [range('< 50 kt', null, 50), range('50–65 kt', 50, 65), range('≥ 65 kt', 65, null)],
  tornado: [0, 1, 2, 3, 4, 5].map((r) => range(`(E)F${r}`, r, r + 1)),
  fire: [
    range('< 1,000 acres', null, 1_000),
    range('1,000–10,000 acres', 1_000, 10_000),
    range('10,000–100,000 acres', 10_000, 100_000),
    range('≥ 100,000 acres', 100_000, null),
  ],
};

export interface ReportSummaryOptions {
  /** Default by kind: 25 km for hail/wind/tornado, 50 km for fires. */
  readonly radiusKm?: number;
  /** Calendar years of the record (the report's published local date), for rates; see YearSpan. */
  readonly years: YearSpan;
  /**
   * The kind summarised. When given, reports of other kinds are left out (counted under input);
   * when absent, every report must share one kind.
   */
  readonly kind?: ReportKind;
}

export interface ValueClass {
  readonly label: string;
  /** Inclusive; null: no lower bound (or the unknown class). */
  readonly min_value: number | null;
  /** Exclusive; null: no upper bound (or the unknown class). */
  readonly max_value: number | null;
  readonly count: number;
  readonly annual_rate: number;
}

export interface LargestReport {
  readonly event_id: string;
  readonly date: string;
  readonly time: string | null;
  readonly value: number;
  readonly unit: ReportUnit;
  readonly distance_km: number;
  readonly latitude: number;
  readonly longitude: number;
  /** Fire name (MTBS Incid_Name) where the publisher gives one; null otherwise. */
  readonly name: string | null;
}

export interface ReportSummary {
  readonly peril: 'severe_convective_storm' | 'wildfire';
  readonly kind: ReportKind;
  readonly unit: ReportUnit;
  readonly method: string;
  readonly distance_method: string;
  readonly point: PointOut;
  readonly radius_km: number;
  readonly record: RecordYears;
  readonly input: {
    readonly reports: number;
    readonly other_kinds: number;
    readonly outside_record_years: number;
    /** Reports in the record years without coordinates: cannot be placed, not in any count below. */
    readonly without_coordinates: number;
    readonly with_coordinates: number;
  };
  readonly within_radius: number;
  readonly classes: ValueClass[];
  /** Reports within the radius whose value the publisher does not give (e.g. tornado rating −9). */
  readonly unknown_value: { readonly count: number; readonly annual_rate: number };
  readonly largest: LargestReport[];
  /** Fires only (null for storm reports). */
  readonly burned_area: {
    readonly total_acres: number;
    readonly annual_mean_acres: number;
    readonly fires_with_acres: number;
    readonly fires_without_acres: number;
    /** Fires within the radius by the publisher's incident type (MTBS Incid_Type), when published. */
    readonly by_incident_type: { readonly incident_type: string; readonly count: number; readonly acres: number }[];
  } | null;
  readonly notes: string[];
}

function inClass(value: number, c: ClassDef): boolean {
  return (c.min === null || value >= c.min) && (c.max === null || value < c.max);
}

const KIND_NOTES: Readonly<Record<ReportKind, string>> = {
  hail: 'hail value: reported hailstone diameter in inches; reports are observations, denser where people are, and the reporting practice changed over the decades',
  wind: 'wind value: reported thunderstorm wind speed in knots, measured or estimated (the publisher does not always say which)',
  tornado: 'tornado value: the (E)F rating (F scale before February 2007, EF after); an unknown rating (−9) is the unknown class; the point is the track\'s start point',
  fire: 'fire point: the point the publisher encodes for the fire (MTBS Event_ID), not its perimeter: a large fire can burn near the point while its point lies farther away, and the reverse; burned acres are the whole fire\'s',
};

/** Storm reports or mapped fires near a point. Pure: the caller passes the parsed records. */
export function reportSummary(reports: readonly ReportEvent[], point: GeoPoint, options: ReportSummaryOptions): ReportSummary {
  const at = checkPoint(point);
  const kinds = [...new Set(reports.map((r) => r.kind))].sort();
  const kind = options.kind ?? (kinds.length === 1 ? kinds[0]! : null);
  if (kind === null) {
    throw new RangeError(kinds.length === 0 ? 'no reports and no kind given: state the kind' : `reports mix kinds (${kinds.join(', ')}): state the kind`);
  }
  if (!(kind in REPORT_CLASSES)) throw new RangeError(`unknown report kind ${JSON.stringify(kind)}`);
  const radiusKm = checkRadius(options.radiusKm ?? REPORT_DEFAULT_RADIUS_KM[kind]);
  const record = recordYears(options.years);
  const unit = REPORT_UNITS[kind];

  let otherKinds = 0;
  let outsideYears = 0;
  let withoutCoordinates = 0;
  let withCoordinates = 0;
  const near: { report: ReportEvent; distance: number; latitude: number; longitude: number }[] = [];
  for (const r of reports) {
    if (r.kind !== kind) { otherKinds++; continue; }
    if (!inRecord(record, Number(r.date.slice(0, 4)))) { outsideYears++; continue; }
    const { latitude, longitude } = r;
    if (latitude === null || longitude === null || !Number.isFinite(latitude) || !Number.isFinite(longitude)) { withoutCoordinates++; continue; }
    withCoordinates++;
    const distance = haversineKm(at, { latitude, longitude });
    if (distance <= radiusKm) near.push({ report: r, distance, latitude, longitude });
  }
  const valueOf = (r: ReportEvent): number | null => finiteOrNull(r.value);

  const classes: ValueClass[] = REPORT_CLASSES[kind].map((c) => {
    const count = near.filter((x) => { const v = valueOf(x.report); return v !== null && inClass(v, c); }).length;
    return { label: c.label, min_value: c.min, max_value: c.max, count, annual_rate: count / record.years };
  });
  const unknown = near.filter((x) => valueOf(x.report) === null).length;

  const largest: LargestReport[] = near
    .filter((x) => valueOf(x.report) !== null)
    .sort((a, b) => valueOf(b.report)! - valueOf(a.report)! || a.report.epoch_ms - b.report.epoch_ms || compareText(a.report.event_id, b.report.event_id))
    .slice(0, LARGEST_LISTED)
    .map(({ report: r, distance, latitude, longitude }) => ({
      event_id: r.event_id,
      date: r.date,
      time: r.time,
      value: valueOf(r)!,
      unit: r.unit,
      distance_km: distance,
      latitude,
      longitude,
      name: kind === 'fire' ? (r.fields.Incid_Name ?? null) : null,
    }));

  let burned: ReportSummary['burned_area'] = null;
  if (kind === 'fire') {
    let total = 0;
    let withAcres = 0;
    const byType = new Map<string, { count: number; acres: number }>();
    for (const { report } of near) {
      const v = valueOf(report);
      if (v !== null) { total += v; withAcres++; }
      const type = report.fields.Incid_Type;
      if (type !== undefined) {
        const t = byType.get(type) ?? { count: 0, acres: 0 };
        t.count++;
        t.acres += v ?? 0;
        byType.set(type, t);
      }
    }
    burned = {
      total_acres: total,
      annual_mean_acres: total / record.years,
      fires_with_acres: withAcres,
      fires_without_acres: near.length - withAcres,
      by_incident_type: [...byType]
        .sort((a, b) => b[1].count - a[1].count || compareText(a[0], b[0]))
        .map(([incident_type, t]) => ({ incident_type, count: t.count, acres: t.acres })),
    };
  }

  const notes = [
    `a report is within the radius when the ${DISTANCE_METHOD} from the point to the report's point is at most ${radiusKm} km; ` +
      'reports without coordinates cannot be placed and are counted apart (input.without_coordinates)',
    `value classes are half-open, [lower, upper), in ${unit}; reports without a value form the unknown class`,
    KIND_NOTES[kind],
    'a report belongs to the calendar year of its published (local) date',
    rateNote(record),
    'largest: up to 10 reports within the radius by value, ties by time then event id; reports are not grouped into storms or occurrences',
  ];
  if (kind === 'fire') notes.push('all incident types the extract holds are counted (MTBS maps prescribed fires too): see burned_area.by_incident_type');

  return {
    peril: kind === 'fire' ? 'wildfire' : 'severe_convective_storm',
    kind,
    unit,
    method: `count of ${kind} ${kind === 'fire' ? 'records' : 'reports'} with a point within radius_km of the point in the record years, by value class, each divided by the record years`,
    distance_method: DISTANCE_METHOD,
    point: at,
    radius_km: radiusKm,
    record,
    input: {
      reports: reports.length,
      other_kinds: otherKinds,
      outside_record_years: outsideYears,
      without_coordinates: withoutCoordinates,
      with_coordinates: withCoordinates,
    },
    within_radius: near.length,
    classes,
    unknown_value: { count: unknown, annual_rate: unknown / record.years },
    largest,
    burned_area: burned,
    notes,
  };
}

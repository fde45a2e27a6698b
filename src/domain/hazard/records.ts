// Hazard records: what the publisher parsers in feeds/ produce and the domain reads (events,
// daily series, storm tracks). Plain data; the parsing lives in feeds/.

/** One earthquake (or other seismic event) of a USGS ComCat catalog. */
export interface QuakeEvent {
  /** ComCat preferred event id, as published (e.g. ci38457511). */
  readonly event_id: string;
  /** Origin time, ISO 8601 UTC. */
  readonly time: string;
  readonly epoch_ms: number;
  readonly latitude: number;
  readonly longitude: number;
  /** null where ComCat gives no depth (historical events). */
  readonly depth_km: number | null;
  readonly magnitude: number | null;
  readonly mag_type: string;
  /** Publisher's event type: earthquake, nuclear explosion, ... (not filtered). */
  readonly type: string;
  readonly place?: string;
  readonly net: string;
  readonly status: string;
  readonly line: number;
  /** Every publisher column of the row, as published. */
  readonly fields: Readonly<Record<string, string>>;
}

export type ReportKind = 'hail' | 'wind' | 'tornado' | 'fire';
/** in = hail diameter (inches), kt = wind speed (knots), EF = (E)F rating, acres = burned area. */
export type ReportUnit = 'in' | 'kt' | 'EF' | 'acres';

/** The unit each kind of report is published in. */
export const REPORT_UNITS: Readonly<Record<ReportKind, ReportUnit>> = { hail: 'in', wind: 'kt', tornado: 'EF', fire: 'acres' };

/** One storm report or mapped fire. */
export interface ReportEvent {
  readonly kind: ReportKind;
  /** Publisher id, or a stable id from publisher columns where the format has none unique (see parser). */
  readonly event_id: string;
  /** Date as published, local to the report (YYYY-MM-DD). */
  readonly date: string;
  /** ISO 8601 UTC; null where only a date is published (then epoch_ms is 00:00 UTC of `date`). */
  readonly time: string | null;
  readonly epoch_ms: number;
  /** Clock time as published (HH:MM:SS, local), null where none. */
  readonly local_time: string | null;
  /** Offset applied to local_time to get `time` (e.g. -06:00 for CST), null where none. */
  readonly utc_offset: string | null;
  readonly latitude: number | null;
  readonly longitude: number | null;
  readonly value: number | null;
  readonly unit: ReportUnit;
  readonly line: number;
  /** Every publisher column of the row, as published (trimmed). */
  readonly fields: Readonly<Record<string, string>>;
}

// Daily series: values stay in the feed's native unit (see kernel/units.ts).
export interface DayValue {
  date: string; // YYYY-MM-DD (the publisher's own day convention; see each parser)
  value: number | null; // null = no usable value that day (missing, excluded or accumulated)
  flags?: string; // publisher codes and parser notes, ';'-separated key=value tokens
}

export interface DailySeries {
  source_id: string; // publisher's station / site / county id, as written in the file
  variable: string; // publisher's element or column code (PRCP, RD, 00060, outage_count...)
  unit: string; // native unit, named: 'tenths of mm', 'tenths of m/s', 'mm', 'ft3/s', ...
  days: DayValue[]; // one entry per calendar day from the first to the last day of record, sorted
  quirks: string[]; // every oddity met while parsing, in plain words
}

// Storm tracks: the common output of the best-track parsers (HURDAT2, JTWC ATCF b-decks).
export interface WindRadii {
  threshold_kt: number; // 34, 50 or 64
  code: string; // quadrant code: NEQ = NE,SE,SW,NW quadrants; AAA = full circle (JTWC)
  radii_nm: [number | null, number | null, number | null, number | null]; // NE, SE, SW, NW (AAA: first only)
}

export interface TrackFix {
  time: string; // ISO 8601 UTC, e.g. 2005-08-23T18:00:00Z
  epoch_ms: number;
  latitude: number; // decimal degrees, south negative
  longitude: number; // decimal degrees in [-180, 180], west negative
  max_wind_kt: number | null; // 1-minute sustained; null = unknown
  min_pressure_mb: number | null; // null = missing
  status?: string; // publisher's development level (HU, TS, TY, EX, ...)
  record_id?: string; // HURDAT2 record identifier (L = landfall, ...)
  wind_radii?: WindRadii[];
  rmw_nm?: number; // radius of maximum wind
}

export interface Storm {
  storm_id: string; // publisher's ATCF id: basin + number + year (AL122005, WP262013)
  name: string | null; // null when unnamed (UNNAMED, INVEST, NONAME, number words) or absent
  name_raw?: string; // the placeholder or conflicting names as written, when name is null or disputed
  basin: string; // AL, EP, CP, WP, IO, SH
  source?: string; // file the storm came from (JTWC)
  fixes: TrackFix[]; // sorted by time, one per time
}

export interface TrackArchive {
  storms: Storm[];
  quirks: string[];
}

/** The perils an event catalog is kept for. */
export type CatalogPeril = 'earthquake' | 'severe_convective_storm' | 'wildfire';

export type EventCatalog =
  | { kind: 'quake'; peril: 'earthquake'; events: QuakeEvent[]; quirks: string[]; magnitudeFloor: number | null }
  | { kind: 'report'; peril: 'severe_convective_storm' | 'wildfire'; events: ReportEvent[]; quirks: string[]; unit: string };

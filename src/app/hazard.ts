// Hazard at a point (GET /hazard): what the pinned record says about one point, per covering
// snapshot, summarised from its records.
import { quakeSummary, reportSummary, seriesHazardSummary, stateEventSummary, trackSummary, type YearSpan } from '../domain/hazard/summary.js';
import { coverageOf } from '../feeds/coverage.js';
import { coverageArea } from '../domain/hazard/coverage-area.js';
import { feedEntry } from '../feeds/catalog.js';
import { dailySeries, eventCatalog, outageEvents, trackArchive } from '../feeds/readers.js';
import type { ReportEvent, DailySeries } from '../domain/hazard/records.js';
import { excludedObservations, measuredVariable, siObservation } from '../domain/quality.js';
import type { Snapshot } from '../feeds/store.js';
import { refusal } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { snapshotPath } from './feeds.js';
import type { AppDeps } from './deps.js';
import { HAZARD_SCHEMA_VERSION } from '../kernel/versions.js';

export const HAZARD_PERILS = ['earthquake', 'flood', 'grid_outage', 'severe_convective_storm', 'tropical_cyclone', 'weather_station', 'wildfire'] as const;
const HAZARD_KINDS = new Set(['event_catalog', 'storm_report_set', 'fire_extract', 'daily_series', 'outage_series', 'track_archive']);

/** The calendar years of a snapshot's period of record, as the summaries count rates over them. */
export function yearsOf(s: Snapshot): YearSpan {
  const p = s.manifest.period_of_record;
  return { from: Number(p?.from?.slice(0, 4)), to: Number(p?.to?.slice(0, 4)), missing: s.manifest.years_missing };
}

async function summarize(deps: Pick<AppDeps, 'feeds'>, s: Snapshot, point: { latitude: number; longitude: number }): Promise<unknown> {
  const store = deps.feeds!;
  // A state outage event record says kind outage_series in its manifest; the catalog reads it as events.
  if (feedEntry(s.manifest)?.dataset === 'outage_events') {
    return store.parsed(s, 'hazard-outage-summary', async () => stateEventSummary(await outageEvents(store, s), yearsOf(s)));
  }
  switch (s.manifest.kind) {
    case 'event_catalog': {
      const catalog = await eventCatalog(store, s);
      if (catalog.kind !== 'quake') throw new Error('not a quake catalog');
      return quakeSummary(catalog.events, point, { years: yearsOf(s), magnitudeFloor: catalog.magnitudeFloor });
    }
    case 'storm_report_set':
    case 'fire_extract': {
      const catalog = await eventCatalog(store, s);
      return reportSummary(catalog.events as ReportEvent[], point, { years: yearsOf(s) });
    }
    case 'daily_series':
    case 'outage_series': {
      const series = await dailySeries(store, s);
      // A station's summary does not depend on the point asked: computed once per snapshot, in SI
      // with the publisher's unit named, excluded observations listed. A wind file holds several
      // speed elements (mean wind, gusts): the exclusions of every one are listed, as a backtest on
      // any of them lists its own.
      const others = await otherSpeedElements(deps, s, series.variable);
      return store.parsed(s, 'hazard-series-summary', () => {
        const summary = seriesHazardSummary(series);
        const excluded = [...summary.excluded_observations, ...others.flatMap((o) => excludedObservations(o).map(siObservation))]
          .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.element < b.element ? -1 : a.element > b.element ? 1 : 0));
        return { ...summary, excluded_observations: excluded };
      });
    }
    case 'track_archive': {
      return trackSummary((await trackArchive(store, s)).storms, point, { years: yearsOf(s) });
    }
    default:
      throw new Error(`no hazard summary for ${s.manifest.kind}`);
  }
}

/** The other wind-speed elements a GHCN wind file serves (each parsed under the same quality rule). */
async function otherSpeedElements(deps: Pick<AppDeps, 'feeds'>, s: Snapshot, summarized: string): Promise<DailySeries[]> {
  if (feedEntry(s.manifest)?.parser !== 'ghcnd') return [];
  const served = (s.manifest.raw.served_elements as unknown[] | undefined) ?? [];
  const out: DailySeries[] = [];
  for (const el of served) {
    if (typeof el !== 'string' || el === summarized || measuredVariable(el) !== 'wind_speed') continue;
    try {
      out.push(await dailySeries(deps.feeds!, s, el));
    } catch {
      // An element the file does not hold has nothing to list.
    }
  }
  return out;
}

/** What the pinned record says about one point: a summary per snapshot whose coverage holds it. */
export async function hazardAt(
  deps: Pick<AppDeps, 'feeds'>,
  input: { peril: string; latitude: number; longitude: number },
): Promise<Result<Record<string, unknown>>> {
  const { peril, latitude, longitude } = input;
  if (!(HAZARD_PERILS as readonly string[]).includes(peril)) {
    return refused(refusal(422, 'unsupported_peril', `No pinned data answers hazard lookups for ${peril}; lookups answer for ${HAZARD_PERILS.join(', ')}.`));
  }
  const point = { latitude, longitude };
  const candidates = (deps.feeds?.feeds() ?? []).map((id) => deps.feeds!.get(id)!)
    // Only a snapshot the feed catalog reads: one pinned ahead of the code that will read it is not summarised.
    // The Purdue table is a second reading of the OE-417 record (kept for the cross-check): the DOE rows answer.
    .filter((s) => HAZARD_KINDS.has(s.manifest.kind ?? '') && (s.manifest.perils ?? []).includes(peril) && feedEntry(s.manifest) !== undefined
      && feedEntry(s.manifest)?.parser !== 'purdue');
  const covering = candidates.map((s) => ({ s, coverage: coverageOf(s, point) })).filter((c) => c.coverage.covered);
  if (covering.length === 0) {
    return refused(refusal(422, 'outside_feed_coverage',
      `No pinned ${peril} snapshot covers ${latitude}, ${longitude}; coverage is checked, not approximated.`,
      candidates.map((s) => `${s.feed_id}: ${describeCoverage(s)}`)));
  }
  const summaries = [];
  for (const { s, coverage } of covering) {
    summaries.push({
      feed: { feed_id: s.feed_id, version: s.version, sha256: s.sha256, title: s.manifest.title ?? null, kind: s.manifest.kind, links: { self: snapshotPath(s) } },
      coverage,
      summary: await summarize(deps, s, point),
    });
  }
  return ok({
    schema_version: HAZARD_SCHEMA_VERSION,
    peril,
    point: { latitude, longitude },
    summaries,
    statement: 'History from the pinned record, not a forecast.',
  });
}

function describeCoverage(s: Snapshot): string {
  const area = coverageArea(s.manifest.coverage);
  if (area.type === 'none') return 'no coverage stated';
  if (area.point) return `point ${area.point.latitude}, ${area.point.longitude}`;
  if (!area.box) return `${area.type} coverage stating no box`;
  return `box lat ${area.box.min_latitude} to ${area.box.max_latitude}, lon ${area.box.min_longitude} to ${area.box.max_longitude}`;
}

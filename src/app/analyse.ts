// The analyse verb (POST /objects/{id}/analyse): what a schedule's located locations are exposed to
// in the pinned record. The request names the analyses (unknown or none: 422 unknown_analysis at
// once); the job reads the object's bytes a batch of locations at a time, refuses what it cannot
// analyse (422 unanalysable_object), hands the feed reads to a compute thread, and records the
// content-addressed run on the object's provenance.
export { ANALYSES } from '../domain/analyse/analyses.js';
import { LOCATED_LIMIT, NEARBY_LISTED, NEEDS_PERIL, readAnalyseRequest, type AnalysisName } from '../domain/analyse/analyses.js';
import { largestNear, stormExtents, stormsNear } from '../domain/analyse/nearby.js';
import { ExposureQuality } from '../domain/analyse/quality.js';
import { designsOn } from '../domain/analyse/reach.js';
import { coverageArea } from '../domain/hazard/coverage-area.js';
import type { QuakeEvent, ReportEvent, Storm } from '../domain/hazard/records.js';
import { trackSummary } from '../domain/hazard/summary.js';
import { haversineKm, type GeoPoint } from '../domain/geo.js';
import { perilCode } from '../domain/list-summaries.js';
import { appendAnalysis, analysisRecorded } from '../domain/risk-object/analysis.js';
import { PRICED_PERILS } from '../domain/triggers/vocabulary.js';
import { feedEntry } from '../feeds/catalog.js';
import { coverageOf } from '../feeds/coverage.js';
import { catalogPeril, eventCatalog, trackArchive } from '../feeds/readers.js';
import type { FeedStore, Snapshot } from '../feeds/store.js';
import { canonicalJson, contentAddress } from '../kernel/canonical-json.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { ANALYSIS_ENGINE, ANALYSIS_SCHEMA_VERSION } from '../kernel/versions.js';
import { requireActive } from './accounts.js';
import { feedTriple } from './feeds.js';
import { hazardAt, HAZARD_PERILS, yearsOf } from './hazard.js';
import { queueJob, type QueuedJob } from './jobs.js';
import { locationBatches, objectSkeleton } from './objects.js';
import type { AppDeps } from './deps.js';

const unanalysable = (message: string, details?: string[]) => refused<never>(refusal(422, 'unanalysable_object', message, details));
const record = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined);

/** POST /objects/{id}/analyse: the analyses are read on the request, the work is a job. */
export async function requestAnalyse(
  deps: Pick<AppDeps, 'accounts' | 'objects' | 'jobs' | 'wakeWorker'>,
  input: { accountId: string; objectId: string; body: { analyses?: string[]; radius_km?: number } | null | undefined },
): Promise<Result<QueuedJob>> {
  const { accountId, objectId: id } = input;
  const active = await requireActive(deps, accountId);
  if (!active.ok) return active;
  if (!(await deps.objects.head(id, accountId))) return refused(refusals.notFound(`No object ${id} for this key`));
  const read = readAnalyseRequest(input.body);
  if (!read.ok) return read;
  const { analyses, radius_km } = read.value;
  return ok(await queueJob(deps, {
    accountId, verb: 'analyse', subject: { object_id: id, analyses },
    input: { object_id: id, analyses, radius_km },
  }));
}

/** A located location as the compute thread reads it: its position in exposure.locations, its ref. */
export interface LocatedLocation { index: number; ref: string | null; latitude: number; longitude: number }

export interface AnalyseTaskInput {
  peril: string | null;
  analyses: readonly AnalysisName[];
  radius_km: number;
  located: readonly LocatedLocation[];
  feedsDir: string | undefined;
}

/** What the thread hands back: each analysis that reads feeds, and every snapshot read. */
export interface AnalyseTaskOutput {
  results: Partial<Record<AnalysisName, unknown>>;
  feeds: Array<{ feed_id: string; version: string; sha256: string }>;
}

/** The analyse job: refusals of the object, then the feed reads in a compute thread, then provenance. */
export async function analyseJob(
  deps: Pick<AppDeps, 'objects' | 'compute' | 'config' | 'now'>,
  job: { id: string; accountId: string; input: { object_id: string; analyses: AnalysisName[]; radius_km: number } },
): Promise<Result<unknown>> {
  const { object_id: objectId, analyses, radius_km: radiusKm } = job.input;
  const head = await deps.objects.head(objectId, job.accountId);
  if (!head) return refused(refusal(404, 'not_found', `Object ${objectId} no longer exists.`));
  const { document } = await objectSkeleton(deps, objectId, head);
  const peril = perilCode(document);
  const exposure = record(document.exposure);
  const currency = typeof exposure?.currency === 'string' ? exposure.currency : null;
  const needing = analyses.filter((a) => NEEDS_PERIL.has(a));
  if (needing.length > 0 && peril === null) {
    return unanalysable(`Object ${objectId} names no peril.code, which ${needing.join(' and ')} read${needing.length === 1 ? 's' : ''}; PATCH a peril first.`);
  }
  // One pass over the locations: the quality tally, and the located ones (no more than the limit kept).
  const quality = analyses.includes('exposure_quality') ? new ExposureQuality(currency) : undefined;
  const located: LocatedLocation[] = [];
  let count = 0;
  let locatedCount = 0;
  for await (const batch of locationBatches(deps, objectId, head, 5000)) {
    quality?.add(batch);
    for (const l of batch) {
      if (typeof l.latitude === 'number' && typeof l.longitude === 'number') {
        locatedCount += 1;
        if (located.length < LOCATED_LIMIT) located.push({ index: count, ref: l.ref ?? null, latitude: l.latitude, longitude: l.longitude });
      }
      count += 1;
    }
  }
  if (count === 0) return unanalysable(`Object ${objectId} holds no locations.`);
  if (locatedCount === 0) return unanalysable(`None of object ${objectId}'s ${count} locations has coordinates; an analyse run reads located locations.`);
  if (locatedCount > LOCATED_LIMIT) {
    return unanalysable(`Object ${objectId} has ${locatedCount} located locations; an analyse run reads at most ${LOCATED_LIMIT}. Analyse a smaller schedule.`,
      [`located locations: ${locatedCount}, limit ${LOCATED_LIMIT}`]);
  }
  let computed: AnalyseTaskOutput = { results: {}, feeds: [] };
  if (analyses.some((a) => a !== 'exposure_quality')) {
    const task = await deps.compute('analyse', { peril, analyses, radius_km: radiusKm, located, feedsDir: deps.config.feedsDir });
    if (!task.ok) return task;
    computed = task.value;
  }
  const results: Record<string, unknown> = { ...computed.results };
  if (quality) results.exposure_quality = quality.result(record(exposure?.source_fidelity));
  const body = {
    schema_version: ANALYSIS_SCHEMA_VERSION,
    engine: ANALYSIS_ENGINE,
    object_id: objectId,
    analyses,
    peril,
    ...(analyses.includes('nearby_history') ? { radius_km: radiusKm } : {}),
    locations: { count, located: locatedCount, limit: LOCATED_LIMIT },
    feeds: computed.feeds,
    results,
    statement: 'History from the pinned record, not a forecast; analysis only.',
  };
  // The same object and analyses over the same snapshots give the same id and the same bytes.
  const id = `an_${contentAddress(body).slice(0, 32)}`;
  const analysis = JSON.parse(canonicalJson({ ...body, id })) as Record<string, unknown>;
  const at = deps.now().toISOString();
  const written = await deps.objects.update(objectId, job.accountId, (current) => (analysisRecorded(current, id, job.id)
    ? { value: undefined }
    : { write: appendAnalysis(current, { run_id: id, job_id: job.id, analyses, feeds: computed.feeds, recorded_at: at }), value: undefined }));
  if (!written) return refused(refusal(404, 'not_found', `Object ${objectId} no longer exists.`));
  return ok(analysis);
}

/** Runs in a compute thread: the analyses that read pinned feeds. */
export async function analyseTask(input: AnalyseTaskInput, store: FeedStore | undefined): Promise<Result<AnalyseTaskOutput>> {
  const snapshots = store ? store.feeds().map((id) => store.get(id)!) : [];
  const read = new Map<string, Snapshot>();
  const results: AnalyseTaskOutput['results'] = {};
  const where = (l: LocatedLocation) => ({ index: l.index, ref: l.ref, latitude: l.latitude, longitude: l.longitude });

  if (input.analyses.includes('hazard_profile')) {
    const peril = input.peril!;
    if (!(HAZARD_PERILS as readonly string[]).includes(peril)) {
      return unanalysable(`No pinned snapshot answers hazard for ${peril}; hazard_profile reads ${HAZARD_PERILS.join(', ')}.`);
    }
    const locations = [];
    for (const l of input.located) {
      // The same use case as GET /hazard, so the figures are the same.
      const answer = await hazardAt({ feeds: store }, { peril, latitude: l.latitude, longitude: l.longitude });
      if (!answer.ok) {
        if (answer.refusal.code !== 'outside_feed_coverage') return answer;
        locations.push({ ...where(l), covered: false, reason: answer.refusal.message });
        continue;
      }
      const summaries = answer.value.summaries as Array<{ feed: { feed_id: string; version: string } }>;
      for (const s of summaries) read.set(`${s.feed.feed_id}/${s.feed.version}`, store!.get(s.feed.feed_id, s.feed.version)!);
      locations.push({ ...where(l), covered: true, summaries });
    }
    if (!locations.some((l) => l.covered)) {
      return unanalysable(`No pinned ${peril} snapshot covers any of the ${input.located.length} located locations; hazard_profile has nothing to read.`);
    }
    results.hazard_profile = { peril, locations };
  }

  if (input.analyses.includes('nearby_history')) {
    const radiusKm = input.radius_km;
    const catalogs = snapshots.filter((s) => catalogPeril(s) !== undefined);
    const archives = snapshots.filter((s) => feedEntry(s.manifest)?.dataset === 'track_archive');
    const locations = [];
    let reached = false;
    for (const l of input.located) {
      const events = [];
      for (const s of catalogs.filter((c) => reaches(c, l, radiusKm))) {
        const catalog = await eventCatalog(store!, s);
        const near = largestNear(catalog.events as readonly (QuakeEvent | ReportEvent)[], l, radiusKm, NEARBY_LISTED);
        read.set(`${s.feed_id}/${s.version}`, s);
        events.push({ feed: { ...feedTriple(s), kind: s.manifest.kind, peril: catalog.peril }, events_within: near.within, largest: near.largest });
      }
      const tracks = [];
      for (const s of archives.filter((a) => reaches(a, l, radiusKm))) {
        const { storms } = await trackArchive(store!, s);
        // Only storms whose fixes come near are sampled: the passes are the track summary's own.
        const summary = trackSummary(stormsNear(storms, extentsOf(storms), l, radiusKm), l, { radiusKm, years: yearsOf(s) });
        read.set(`${s.feed_id}/${s.version}`, s);
        tracks.push({
          feed: { ...feedTriple(s), kind: s.manifest.kind, peril: 'tropical_cyclone' },
          storms_within: summary.storms_within_radius,
          strongest: summary.strongest.map((p) => ({ storm_id: p.storm_id, name: p.name, time: p.time, wind_kt: p.wind_kt, category: p.category, distance_km: p.distance_km })),
        });
      }
      reached ||= events.length + tracks.length > 0;
      locations.push({ ...where(l), events, tracks });
    }
    if (!reached) {
      return unanalysable(`No pinned event catalog or storm-track archive reaches within ${radiusKm} km of any of the ${input.located.length} located locations.`);
    }
    results.nearby_history = {
      radius_km: radiusKm,
      locations,
      notes: [
        `events: per catalog reaching within radius_km, the ${NEARBY_LISTED} largest events within radius_km (inclusive, great-circle distance) by magnitude, or by value in the extract's own unit, named by the publisher's event ids; events_within counts them all`,
        `tracks: per storm-track archive, the ${NEARBY_LISTED} strongest storms with a track sample within radius_km, each with its strongest best-track wind while within it (the storm's maximum sustained wind, not the wind at the point)`,
      ],
    };
  }

  if (input.analyses.includes('feed_reach')) {
    const classed = snapshots.flatMap((s) => {
      const entry = feedEntry(s.manifest);
      return entry ? [{ s, cls: entry.class }] : [];
    });
    const locations = input.located.map((l) => ({
      ...where(l),
      perils: PRICED_PERILS.map((peril) => {
        const feeds = classed.flatMap(({ s, cls }) => {
          const designs = designsOn(peril, cls);
          if (designs.length === 0 || !coverageOf(s, l).covered) return [];
          read.set(`${s.feed_id}/${s.version}`, s);
          return [{ ...feedTriple(s), kind: s.manifest.kind, designs }];
        });
        return { peril, reached: feeds.length > 0, feeds };
      }),
    }));
    results.feed_reach = {
      locations,
      notes: ['a feed reaches a location when its coverage holds it (a box or basin, or within a point feed\'s stated radius), as GET /hazard checks it; designs: what a structure of the peril can be written with on that feed'],
    };
  }

  const feeds = [...read.values()].map(feedTriple).sort((a, b) => (a.feed_id < b.feed_id ? -1 : a.feed_id > b.feed_id ? 1 : a.version < b.version ? -1 : 1));
  return ok({ results, feeds });
}

/** Each parsed archive's storm boxes, computed once per archive this thread holds. */
const extents = new WeakMap<readonly Storm[], Float64Array>();
function extentsOf(storms: readonly Storm[]): Float64Array {
  let e = extents.get(storms);
  if (!e) extents.set(storms, e = stormExtents(storms));
  return e;
}

/** A box or basin feed whose coverage lies within radiusKm of the point (or holds it). */
function reaches(s: Snapshot, point: GeoPoint, radiusKm: number): boolean {
  if (coverageOf(s, point).covered) return true;
  const area = coverageArea(s.manifest.coverage);
  if (!area.box || area.longitude_range_0_360) return false;
  const b = area.box;
  const nearest = {
    latitude: Math.min(Math.max(point.latitude, b.min_latitude), b.max_latitude),
    longitude: Math.min(Math.max(point.longitude, b.min_longitude), b.max_longitude),
  };
  return haversineKm(point, nearest) <= radiusKm;
}


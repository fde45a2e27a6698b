// The pinned snapshots as the service shows them: GET /feeds, a snapshot's manifest, its data (the
// publisher's bytes, or an index of its files), and the data room's catalogue.
import type { Snapshot } from '../feeds/store.js';
import { coverageRadiusKm } from '../feeds/coverage.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { DATAROOM_SCHEMA_VERSION, FEEDS_SCHEMA_VERSION } from '../kernel/versions.js';
import type { AppDeps } from './deps.js';

type Document = Record<string, unknown>;

/** The triple every result names for the bytes it read. */
export function feedTriple(s: Snapshot) {
  return { feed_id: s.feed_id, version: s.version, sha256: s.sha256 };
}

export function snapshotPath(s: Snapshot): string {
  return `/feeds/${encodeURIComponent(s.feed_id)}/versions/${encodeURIComponent(s.version)}`;
}

/** A pinned snapshot by feed and version (the latest when no version is named), else 404. */
export function pinnedSnapshot(deps: Pick<AppDeps, 'feeds'>, feedId: string, version?: string): Result<Snapshot> {
  const store = deps.feeds;
  const snapshot = store?.get(feedId, version);
  if (!snapshot) {
    const known = store?.versions(feedId) ?? [];
    return refused(refusals.notFound(known.length > 0
      ? `Feed ${feedId} has no pinned version ${version}; pinned: ${known.join(', ')}`
      : `No pinned feed ${feedId}`));
  }
  return ok(snapshot);
}

function versionView(s: Snapshot) {
  const m = s.manifest;
  return {
    version: s.version,
    sha256: s.sha256,
    content_servable: m.content_servable !== false,
    period_of_record: m.period_of_record ?? null,
    links: { self: snapshotPath(s), data: `${snapshotPath(s)}/data` },
  };
}

/** GET /feeds: every pinned snapshot, by feed, with the ones refused at start-up. */
export function feedList(deps: Pick<AppDeps, 'feeds'>): Result<Document> {
  const store = deps.feeds;
  const feeds = (store?.feeds() ?? []).map((feedId) => {
    const versions = store!.versions(feedId).map((v) => store!.get(feedId, v)!);
    const latest = versions[versions.length - 1]!.manifest;
    return {
      feed_id: feedId,
      title: latest.title ?? null,
      kind: latest.kind ?? null,
      perils: latest.perils ?? [],
      publisher: latest.publisher ?? null,
      coverage: latest.coverage?.raw ?? null,
      coverage_radius_km: coverageRadiusKm(versions[versions.length - 1]!) ?? null,
      aggregation_level: latest.aggregation_level ?? null,
      latest_version: latest.version,
      versions: versions.map(versionView),
    };
  });
  return ok({
    schema_version: FEEDS_SCHEMA_VERSION,
    count: feeds.length,
    feeds,
    refused: (store?.refused ?? []).map((r) => ({ feed_id: r.feed_id, version: r.version, reason: r.reason })),
    note: 'Every snapshot is identified by (feed_id, version, sha256); sha256 is that of the exact pinned bytes (for several files, of their sha256sum listing sorted by name).',
  });
}

/** GET /feeds/{feed_id}/versions/{version}: the manifest as pinned, with its digest. */
export function snapshotManifest(deps: Pick<AppDeps, 'feeds'>, input: { feedId: string; version: string }): Result<Document> {
  const found = pinnedSnapshot(deps, input.feedId, input.version);
  if (!found.ok) return found;
  const snapshot = found.value;
  const m = snapshot.manifest;
  return ok({
    ...m.raw,
    schema_version: FEEDS_SCHEMA_VERSION,
    sha256: snapshot.sha256,
    content_servable: m.content_servable !== false,
    links: { self: snapshotPath(snapshot), data: `${snapshotPath(snapshot)}/data` },
  });
}

/** A snapshot's content: one file's bytes with its pinned entry, or the index of its files. */
export type SnapshotData =
  | { kind: 'index'; document: Document }
  | { kind: 'file'; snapshot: Snapshot; name: string; sha256: string; mediaType: string | null; bytes: Buffer };

/**
 * The publisher's bytes verbatim, read through the verified store. A snapshot of several files
 * answers with an index whose links are `base?file=`; `file` names one. A licence for aggregates
 * only refuses the content (403 feed_not_servable).
 */
export async function snapshotData(
  deps: Pick<AppDeps, 'feeds'>,
  input: { feedId: string; version: string; file: string | undefined; base: (s: Snapshot) => string },
): Promise<Result<SnapshotData>> {
  const found = pinnedSnapshot(deps, input.feedId, input.version);
  if (!found.ok) return found;
  const snapshot = found.value;
  if (snapshot.manifest.content_servable === false) {
    return refused(refusal(403, 'feed_not_servable',
      `The licence of ${snapshot.feed_id} ${snapshot.version} allows aggregates only: its content is not served. Its manifest and the results computed from it are.`));
  }
  const files = snapshot.manifest.files;
  const name = input.file ?? (files.length === 1 ? files[0]!.name : undefined);
  if (name === undefined) {
    const base = input.base(snapshot);
    return ok({
      kind: 'index',
      document: {
        schema_version: FEEDS_SCHEMA_VERSION,
        ...feedTriple(snapshot),
        files: files.map((f) => ({ name: f.name, sha256: f.sha256, bytes: f.bytes, media_type: f.media_type, links: { data: `${base}?file=${encodeURIComponent(f.name)}` } })),
      },
    });
  }
  const entry = files.find((f) => f.name === name);
  if (!entry) return refused(refusals.notFound(`${snapshot.feed_id} ${snapshot.version} has no file ${name}`));
  const bytes = await deps.feeds!.readFile(snapshot, entry.name);
  return ok({ kind: 'file', snapshot, name: entry.name, sha256: entry.sha256, mediaType: entry.media_type, bytes });
}

/** Where the data room serves one file of a snapshot. */
export function datasetFilePath(feedId: string, version: string, name: string): string {
  return `/datasets/${encodeURIComponent(feedId)}/${encodeURIComponent(version)}/files/${name.split('/').map(encodeURIComponent).join('/')}`;
}

/** One archived dataset as the data room's catalog lists it: licence, credit line, provenance and per-file digests. */
function catalogEntry(s: Snapshot) {
  const m = s.manifest;
  return {
    id: s.feed_id,
    version: s.version,
    sha256: s.sha256,
    title: m.title ?? null,
    kind: m.kind ?? null,
    perils: m.perils ?? [],
    license: m.license ?? null,
    credit_line: m.credit_line ?? null,
    publisher: { name: m.publisher ?? null, url: m.publisher_url ?? null },
    provenance: { obtained_from: m.raw.obtained_from ?? null, derived: m.derived ?? null, derivation: m.derivation ?? null },
    coverage: m.coverage?.raw ?? null,
    period_of_record: m.period_of_record ?? null,
    content_servable: m.content_servable !== false,
    files: m.files.map((f) => ({
      name: f.name, sha256: f.sha256, bytes: f.bytes, media_type: f.media_type,
      links: { download: datasetFilePath(s.feed_id, s.version, f.name) },
    })),
  };
}

const CATALOG_NOTE = 'Files are served verbatim; each download carries Repr-Digest (RFC 9530) with the SHA-256 listed here. Datasets whose licence allows aggregates only are listed but not served (403 feed_not_servable).';

/**
 * GET /catalog on the data room: every archived dataset with licence, credit line, provenance and
 * per-file digests. A summary leaves out each dataset's provenance, coverage and file list (one
 * dataset's entry has them) and names how many files it has.
 */
export function datasetCatalog(deps: Pick<AppDeps, 'feeds'>, input: { summary?: boolean } = {}): Result<Document> {
  const datasets = (deps.feeds?.list() ?? []).map((s) => {
    const entry = catalogEntry(s);
    if (!input.summary) return entry;
    const { files, provenance: _provenance, coverage: _coverage, ...rest } = entry;
    return { ...rest, file_count: files.length };
  });
  return ok({
    schema_version: DATAROOM_SCHEMA_VERSION,
    count: datasets.length,
    datasets,
    note: CATALOG_NOTE,
  });
}

/**
 * One dataset of the catalog, by id and version (the latest pinned when none is named): its catalog
 * entry with each file's digest, and the manifest as pinned.
 */
export function catalogDataset(deps: Pick<AppDeps, 'feeds'>, input: { feedId: string; version?: string }): Result<Document> {
  const found = pinnedSnapshot(deps, input.feedId, input.version);
  if (!found.ok) return found;
  return ok({ schema_version: DATAROOM_SCHEMA_VERSION, ...catalogEntry(found.value), manifest: found.value.manifest.raw, note: CATALOG_NOTE });
}

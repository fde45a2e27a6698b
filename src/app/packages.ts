// The package verb (SPEC: POST /objects/{id}/package, GET /packages/{id}; being retired, still
// served): a submission pack assembled from an object's price run and, when one is recorded, the
// backtest of the priced terms. Refused on the request, before a job exists, when the object has
// no price run or lacks a block the draft slip needs. The pack is stored under the content address
// of what it was built from; its documents are drawn as PDF from the stored pack on each read.
import { assemblePack, packJson, PACK_DOCUMENTS, type Pack, type PackDocumentName, type PriceRun } from '../domain/packages/pack.js';
import { packageGaps, priceRunOf, unpackageable } from '../domain/packages/gaps.js';
import type { BacktestArtifact } from '../domain/backtest/artifact.js';
import { pdfFonts } from '../fonts.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { queueJob, type QueuedJob } from './jobs.js';
import type { AppDeps } from './deps.js';

export { PACK_DOCUMENTS, type PackDocumentName };

/** The package request's body: which documents to assemble (all when none are named). */
export interface PackageRequest {
  readonly documents?: readonly PackDocumentName[];
}

/**
 * POST /objects/{id}/package: refused 422 unpackageable_object on the request, naming every
 * missing piece, when the object has no price run or lacks a block the slip needs; else a job.
 */
export async function requestPackage(
  deps: Pick<AppDeps, 'objects' | 'jobs' | 'wakeWorker'>,
  input: { accountId: string; objectId: string; body: PackageRequest | null | undefined },
): Promise<Result<QueuedJob>> {
  const { accountId, objectId: id } = input;
  // The gaps name terms and runs, never a location: the skeleton is read.
  const object = (await deps.objects.skeleton(id, accountId))?.document;
  if (!object) return refused(refusals.notFound(`No object ${id} for this key`));
  const gaps = packageGaps(object);
  if (gaps.length > 0) return refused(unpackageable(id, gaps));
  const documents = PACK_DOCUMENTS.filter((d) => (input.body?.documents ?? PACK_DOCUMENTS).includes(d));
  return ok(await queueJob(deps, { accountId, verb: 'package', subject: { object_id: id, documents }, input: { object_id: id, documents } }));
}

/**
 * The package job: the object as it stands, its price run's document (as the price job recorded
 * it), the backtest of the priced terms when recorded; the pack assembled and stored. The job's
 * result is a short account of the pack with its links, not the pack.
 */
export async function packageJob(
  deps: Pick<AppDeps, 'objects' | 'jobs' | 'structures' | 'packages' | 'feeds'>,
  job: { accountId: string; input: { object_id: string; documents: PackDocumentName[] } },
): Promise<Result<unknown>> {
  const { object_id: id, documents } = job.input;
  const built = await buildPack(deps, { accountId: job.accountId, objectId: id, documents });
  if (!built.ok) return built;
  const pack = built.value;
  await deps.packages.put(job.accountId, pack.id, id, packJson(pack));
  return ok({
    id: pack.id, object: pack.object, price_run: pack.price_run.run_id, backtest_id: pack.backtest_id,
    documents: Object.keys(pack.documents), omitted: pack.omitted, watermark: pack.watermark, links: pack.links,
  });
}

/** The pack of an object as it stands now (what the job stores): pure assembly over the stored documents. */
export async function buildPack(
  deps: Pick<AppDeps, 'objects' | 'jobs' | 'structures' | 'feeds'>,
  input: { accountId: string; objectId: string; documents: readonly PackDocumentName[] },
): Promise<Result<Pack>> {
  const { accountId, objectId: id } = input;
  const stored = await deps.objects.read(id, accountId);
  if (!stored) return refused(refusal(404, 'not_found', `Object ${id} no longer exists.`));
  const object = stored.document;
  // Read again: a PATCH between the request and the job may have removed a block the slip needs.
  const gaps = packageGaps(object);
  if (gaps.length > 0) return refused(unpackageable(id, gaps));
  const run = priceRunOf(object)!;
  const priceJob = run.job_id ? await deps.jobs.get(run.job_id, accountId) : undefined;
  const price = priceJob?.status === 'succeeded' && priceJob.result !== null ? JSON.parse(priceJob.result) as PriceRun : undefined;
  if (!price || price.id !== run.run_id) {
    return refused(unpackageable(id, [`price run: the document of price run ${run.run_id} is no longer held (its job ${run.job_id || 'is not recorded'}); price the object again (POST /objects/{id}/price)`]));
  }
  // The backtest of the priced terms over the priced window has the id the price names.
  const backtestId = price.backtest?.id;
  const backtestJson = backtestId ? await deps.structures.backtestJson(backtestId, accountId) : undefined;
  const backtest = backtestJson ? JSON.parse(backtestJson) as BacktestArtifact & { id: string } : null;
  const publisher = deps.feeds?.get(price.feed.feed_id, price.feed.version)?.manifest.publisher ?? null;
  return ok(assemblePack({ object, objectVersion: stored.version, priceRun: run, price, backtest, documents: input.documents }, publisher));
}

/** A stored pack, as the canonical JSON it was stored as. */
export async function readPackage(deps: Pick<AppDeps, 'packages'>, input: { accountId: string; id: string }): Promise<Result<string>> {
  const json = await deps.packages.json(input.id, input.accountId);
  if (json === undefined) return refused(refusals.notFound(`No package ${input.id} for this key`));
  return ok(json);
}

/**
 * A document of a stored pack as PDF (`document`), or the whole pack as one PDF (none named). A
 * document the pack does not hold (not asked for, or no backtest recorded) is not found.
 */
export async function packagePdf(deps: Pick<AppDeps, 'packages'>, input: { accountId: string; id: string; document?: PackDocumentName }): Promise<Result<Buffer>> {
  const json = await readPackage(deps, input);
  if (!json.ok) return json;
  const pack = JSON.parse(json.value) as Pack;
  const { document } = input;
  if (document !== undefined && !pack.documents[document]) {
    const why = pack.omitted.find((o) => o.document === document)?.reason ?? 'it was not asked for when the pack was assembled';
    return refused(refusals.notFound(`Package ${input.id} holds no ${document}: ${why}.`));
  }
  const names = document === undefined ? PACK_DOCUMENTS.filter((d) => pack.documents[d]) : [document];
  // pdfkit is loaded when a PDF is first drawn, not by every process that serves the API.
  const { packPdf } = await import('../render/pdf.js');
  return ok(await packPdf(pack, names, pdfFonts()));
}

// Structures cut from objects (SPEC: Structures): a structure varies an object's trigger, financial
// structure or period; its backtest is queued here and run in backtest.ts.
import { createHash, randomUUID } from 'node:crypto';
import { faultAnswer } from '../domain/triggers/faults.js';
import { validateStructure } from '../domain/triggers/index.js';
import { artifactJsonWithChart } from '../domain/backtest/links.js';
import type { StructureDocument } from '../store/structures.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { STRUCTURE_SCHEMA_VERSION } from '../kernel/versions.js';
import { termsOf, type Window } from './backtest.js';

export type { Window };
import { queueJob, type QueuedJob } from './jobs.js';
import type { AppDeps } from './deps.js';

const VARIED = ['trigger', 'financial_structure', 'period'];

/** POST /objects/{id}/structures: the object's terms with the blocks the body varies, validated as a structure. */
export async function cutStructure(
  deps: Pick<AppDeps, 'objects' | 'structures' | 'now'>,
  input: { accountId: string; objectId: string; body: unknown },
): Promise<Result<StructureDocument & { links: { self: string } }>> {
  const { accountId, objectId: id } = input;
  // The terms only: the skeleton, never the locations.
  const object = (await deps.objects.skeleton(id, accountId))?.document;
  if (!object) return refused(refusals.notFound(`No object ${id} for this key`));
  const body = (input.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) {
    return refused(refusal(422, 'invalid_structure', 'The body is an object varying trigger, financial_structure or period.', ['body must be an object']));
  }
  const others = Object.keys(body).filter((k) => !VARIED.includes(k));
  if (others.length > 0) {
    return refused(refusal(422, 'invalid_structure', `A structure varies trigger, financial_structure and period only; ${others.join(', ')} cannot be varied.`,
      others.map((k) => `${k} is not varied by a structure (the object's own ${k} applies, or it is not a block)`)));
  }
  const terms = termsOf({ ...object, ...body });
  const fault = faultAnswer(validateStructure(terms), 'structure');
  if (fault) return refused(fault);
  const structureId = `str_${createHash('sha256').update(randomUUID()).digest('hex').slice(0, 24)}`;
  const document = {
    id: structureId,
    schema_version: STRUCTURE_SCHEMA_VERSION,
    object_id: id,
    ...terms,
    varied: Object.keys(body).sort(),
    created_at: deps.now().toISOString(),
    links: { self: `/structures/${structureId}`, object: `/objects/${id}`, backtest: `/structures/${structureId}/backtest` },
  };
  await deps.structures.insert(accountId, document);
  return ok(document);
}

export async function readStructure(deps: Pick<AppDeps, 'structures'>, input: { accountId: string; id: string }): Promise<Result<StructureDocument>> {
  const structure = await deps.structures.get(input.id, input.accountId);
  if (!structure) return refused(refusals.notFound(`No structure ${input.id} for this key`));
  return ok(structure);
}

/** POST /structures/{id}/backtest: queues the replay over the window asked (null: the whole period of record). */
export async function requestBacktest(
  deps: Pick<AppDeps, 'structures' | 'jobs' | 'wakeWorker'>,
  input: { accountId: string; id: string; window: Window },
): Promise<Result<QueuedJob>> {
  const { accountId, id } = input;
  const structure = await deps.structures.get(id, accountId);
  if (!structure) return refused(refusals.notFound(`No structure ${id} for this key`));
  const w = input.window;
  if (w && w.from_year !== undefined && w.to_year !== undefined && w.from_year > w.to_year) {
    const fault = 'window.from_year is after window.to_year';
    return refused(refusals.invalidRequest(422, `The backtest request is not acceptable: ${fault}.`, [fault]));
  }
  const window = w ? { ...(w.from_year !== undefined ? { from_year: w.from_year } : {}), ...(w.to_year !== undefined ? { to_year: w.to_year } : {}) } : null;
  return ok(await queueJob(deps, { accountId, verb: 'backtest', subject: { structure_id: id }, input: { structure_id: id, window } }));
}

/** A stored backtest artifact, as the canonical JSON it was stored as. */
export async function readBacktest(deps: Pick<AppDeps, 'structures'>, input: { accountId: string; id: string }): Promise<Result<string>> {
  const json = await deps.structures.backtestJson(input.id, input.accountId);
  if (json === undefined) return refused(refusals.notFound(`No backtest ${input.id} for this key`));
  // Stored before charts existed: the chart is linked as it is read.
  return ok(artifactJsonWithChart(json, input.id));
}

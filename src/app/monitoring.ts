// Monitoring (SPEC: Monitoring record, Events): a structure recorded as in force, measured on every
// read against the newest pinned snapshot of its feed; webhooks told, with Standard Webhooks
// signatures, when a newly pinned snapshot moves the measurement; every delivery attempt logged.
// docs/monitoring.md is the published account of these rules.
import { createHash, randomUUID } from 'node:crypto';
import { dayOf, inForceFault, markOf, measure, moveOf, type EventType, type InForce, type Measurement, type MeasurementMark } from '../domain/monitoring/measure.js';
import { newSecret, signedHeaders } from '../domain/monitoring/signature.js';
import { open, seal, unopenableReason } from '../domain/sealing.js';
import { checkStructure, validateStructure } from '../domain/triggers/index.js';
import { isObj } from '../domain/triggers/read.js';
import { isTermFault, termRule } from '../domain/triggers/term.js';
import type { Structure } from '../domain/triggers/terms.js';
import { feedClass } from '../feeds/catalog.js';
import type { Snapshot } from '../feeds/store.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { MONITORING_SCHEMA_VERSION } from '../kernel/versions.js';
import type { MonitoringRecordRow, WebhookRow } from '../store/monitoring.js';
import type { StructureDocument } from '../store/structures.js';
import { feedData, termsOf } from './backtest.js';
import type { AppDeps } from './deps.js';
import { queueJob } from './jobs.js';
import { listPage, type ListPage, type ListQuery } from './lists.js';

/** The four causes SPEC names for unmonitorable_structure, as the message and details name them. */
export type Unmonitorable = 'no_trigger' | 'no_term' | 'more_than_one_data_source' | 'unpinned_feed';

/** Webhooks a record may hold. */
export const WEBHOOKS_PER_RECORD = 10;
/** The most of a receiver's answer read (it is not kept: only its status is logged). */
const RECEIVER_ANSWER_BYTES = 64 * 1024;

type MonitoringDeps = Pick<AppDeps, 'structures' | 'monitoring' | 'feeds' | 'now'>;

function unmonitorable(cause: Unmonitorable | 'unmeasurable', message: string, details: readonly string[] = []): Result<never> {
  return refused(refusal(422, 'unmonitorable_structure', `The structure's index cannot be measured (${cause}): ${message}`, [`${cause}: ${message}`, ...details]));
}

/** What a structure's index is measured from: the terms read once, and the newest pinned snapshot of its feed. */
interface Measurable {
  readonly structure: Structure;
  readonly snapshot: Snapshot;
  readonly feedId: string;
}

/**
 * The structure read for measuring, or the refusal naming why it cannot be: no trigger, no term
 * (no period, or none in force), more than one data source, an unpinned feed, or a fault the newest
 * snapshot shows (a feed of a kind the trigger does not read...).
 */
function measurable(deps: Pick<AppDeps, 'feeds'>, document: Record<string, unknown>, inForce: InForce | null): Result<Measurable> {
  const trigger = document.trigger;
  if (!isObj(trigger)) return unmonitorable('no_trigger', 'the structure has no trigger: nothing says what is measured');
  const period = document.period;
  const rule = isObj(period) ? termRule(period as { start: string; end: string }) : null;
  if (rule === null || isTermFault(rule)) {
    return unmonitorable('no_term', `the structure has no term to measure over${rule ? ` (${rule.message})` : ' (no period)'}`);
  }
  if (inForce) {
    const fault = inForceFault(rule, inForce);
    if (fault?.kind === 'no_term') return unmonitorable('no_term', fault.message);
  }
  const sources = Array.isArray(trigger.data_sources) ? trigger.data_sources : [];
  if (sources.length > 1) {
    return unmonitorable('more_than_one_data_source', `trigger.data_sources lists ${sources.length} feeds; an index is measured on exactly one pinned feed`);
  }
  const source = sources[0] as { feed_id?: unknown; version?: unknown } | undefined;
  const feedId = typeof source?.feed_id === 'string' ? source.feed_id : null;
  const newest = feedId === null ? undefined : deps.feeds?.get(feedId);
  if (feedId === null || !newest) {
    return unmonitorable('unpinned_feed', feedId === null ? 'trigger.data_sources names no feed' : `${feedId} has no pinned snapshot (GET /feeds lists them)`);
  }
  if (typeof source!.version === 'string' && !deps.feeds!.get(feedId, source!.version)) {
    return unmonitorable('unpinned_feed', `${feedId} version ${source!.version} is not a pinned snapshot (pinned: ${deps.feeds!.versions(feedId).join(', ')})`);
  }
  // The newest version is what is measured: the terms are read with it pinned and checked against it.
  const terms = termsOf({ ...document, trigger: { ...trigger, data_sources: [{ feed_id: feedId, version: newest.version }] } });
  const shape = validateStructure(terms);
  if (!shape.structure) return unmonitorable('unmeasurable', 'the terms cannot be read', shape.shape_faults.map((f) => `${f.fault} at ${f.path}: ${f.message}`));
  const checked = checkStructure(shape.structure, { feed: { feed_id: feedId, version: newest.version, manifest: newest.manifest, class: feedClass(newest.manifest) } });
  if (!checked.ok) return unmonitorable('unmeasurable', `the trigger cannot be read on ${feedId} ${newest.version}`, checked.data_faults.map((f) => `${f.fault} at ${f.path}: ${f.message}`));
  return ok({ structure: shape.structure, snapshot: newest, feedId });
}

/**
 * Measurements made in this process, by everything they are a function of: the structure (stored
 * once, never rewritten), the days in force, today and the snapshot's identity. A read whose
 * inputs are all unchanged is answered the same measurement without replaying the term again (a
 * gate over a whole track archive takes ~17 ms); a new snapshot or a new day is a new key.
 */
const measured = new Map<string, Measurement>();
const MEASUREMENTS_KEPT = 1000;

/** The measurement of a record now, or why it cannot be made (a snapshot no longer readable for it). */
async function measureRecord(deps: MonitoringDeps, document: Record<string, unknown>, inForce: InForce): Promise<Result<Measurement>> {
  const m = measurable(deps, document, inForce);
  if (!m.ok) return m;
  const { structure, snapshot } = m.value;
  const today = dayOf(deps.now());
  const key = JSON.stringify([document.id, inForce.from, inForce.to, today, snapshot.feed_id, snapshot.version, snapshot.sha256]);
  const kept = measured.get(key);
  if (kept) return ok(kept);
  const data = await feedData(deps.feeds!, structure, snapshot);
  const feed = { feed_id: snapshot.feed_id, version: snapshot.version, sha256: snapshot.sha256, manifest: snapshot.manifest, class: feedClass(snapshot.manifest) };
  const made = measure(structure, inForce, today, feed, data);
  if ('fault' in made) return unmonitorable('unmeasurable', made.message, [`${made.fault} at ${made.path}`]);
  if (typeof document.id === 'string') {
    if (measured.size >= MEASUREMENTS_KEPT) measured.delete(measured.keys().next().value!);
    measured.set(key, made);
  }
  return ok(made);
}

/** A record's state: ended (DELETE), expired (its last day in force has passed), else active. */
export function recordState(row: Pick<MonitoringRecordRow, 'ended_at' | 'in_force_to'>, today: string): 'active' | 'expired' | 'ended' {
  if (row.ended_at !== null) return 'ended';
  return today > row.in_force_to ? 'expired' : 'active';
}

async function recordView(deps: MonitoringDeps, row: MonitoringRecordRow): Promise<Record<string, unknown>> {
  const at = deps.now();
  const structure = await deps.structures.get(row.structure_id, row.account_id);
  const inForce = { from: row.in_force_from, to: row.in_force_to };
  const measured = structure
    ? await measureRecord(deps, structure, inForce)
    : unmonitorable('unmeasurable', `structure ${row.structure_id} no longer exists`);
  return {
    schema_version: MONITORING_SCHEMA_VERSION,
    id: row.id,
    structure_id: row.structure_id,
    label: row.label,
    state: recordState(row, dayOf(at)),
    in_force: inForce,
    created_at: row.created_at,
    ended_at: row.ended_at,
    measured_at: at.toISOString(),
    // Recomputed on this read; a record whose structure can no longer be measured says why.
    measurement: measured.ok ? measured.value : { status: 'unmeasurable', reason: measured.refusal.message },
    statement: 'A measurement of the pinned public record, not a claim: whether and what the structure pays is for its parties under the transaction executed outside this service.',
    links: { self: `/monitoring/${row.id}`, structure: `/structures/${row.structure_id}`, webhooks: `/monitoring/${row.id}/webhooks` },
  };
}

export interface MonitoringRequest {
  readonly label?: string;
  readonly in_force?: InForce;
}

/** POST /structures/{id}/monitoring: records the structure as in force and measures it. */
export async function startMonitoring(
  deps: MonitoringDeps,
  input: { accountId: string; structureId: string; body: MonitoringRequest | null },
): Promise<Result<Record<string, unknown>>> {
  const { accountId, structureId } = input;
  const structure: StructureDocument | undefined = await deps.structures.get(structureId, accountId);
  if (!structure) return refused(refusals.notFound(`No structure ${structureId} for this key`));
  const body = input.body ?? {};
  const period = isObj(structure.period) ? structure.period as { start?: unknown; end?: unknown } : null;
  const inForce: InForce | null = body.in_force ?? (period && typeof period.start === 'string' && typeof period.end === 'string' ? { from: period.start, to: period.end } : null);
  if (body.in_force) {
    // Dates and order are the request's fault; a span holding no day of the term is the structure's (no_term).
    const rule = isObj(structure.period) ? termRule(structure.period as { start: string; end: string }) : null;
    const fault = rule && !isTermFault(rule) ? inForceFault(rule, body.in_force) : null;
    if (fault?.kind === 'dates') return refused(refusals.invalidRequest(422, `The monitoring request is not acceptable: ${fault.message}.`, [fault.message]));
  }
  const m = measurable(deps, structure, inForce);
  if (!m.ok) return m;
  const measured = await measureRecord(deps, structure, inForce!);
  if (!measured.ok) return measured;
  const at = deps.now().toISOString();
  const row: MonitoringRecordRow = {
    id: `mon_${createHash('sha256').update(randomUUID()).digest('hex').slice(0, 24)}`,
    account_id: accountId,
    structure_id: structureId,
    feed_id: m.value.feedId,
    label: body.label ?? null,
    in_force_from: inForce!.from,
    in_force_to: inForce!.to,
    created_at: at,
    ended_at: null,
    // The first measurement is the baseline a newly pinned snapshot is compared with.
    last_measurement: canonicalJson(markOf(measured.value)),
  };
  await deps.monitoring.insertRecord(row);
  return ok(await recordView(deps, row));
}

/** GET /monitoring/{id}. */
export async function readMonitoring(deps: MonitoringDeps, input: { accountId: string; id: string }): Promise<Result<Record<string, unknown>>> {
  const row = await deps.monitoring.record(input.id, input.accountId);
  if (!row) return refused(refusals.notFound(`No monitoring record ${input.id} for this key`));
  return ok(await recordView(deps, row));
}

/** GET /monitoring: the caller's records, newest first, each measured on this read. */
export async function listMonitoring(deps: MonitoringDeps, input: { accountId: string; query: ListQuery }): Promise<Result<ListPage>> {
  const rows = new Map<string, MonitoringRecordRow>();
  const page = await listPage('/monitoring', 'records', input.query, async (after, take) => {
    const found = await deps.monitoring.listRecords(input.accountId, after, take);
    for (const r of found) rows.set(r.id, r);
    return found;
  }, (r) => r.id, (r) => ({ id: r.id }));
  if (!page.ok) return page;
  const records = await Promise.all((page.value.records as { id: string }[]).map((r) => recordView(deps, rows.get(r.id)!)));
  return ok({ ...page.value, records });
}

/** DELETE /monitoring/{id}: the record is ended; nothing more is delivered for it. */
export async function endMonitoring(deps: MonitoringDeps, input: { accountId: string; id: string }): Promise<Result<Record<string, unknown>>> {
  const row = await deps.monitoring.record(input.id, input.accountId);
  if (!row) return refused(refusals.notFound(`No monitoring record ${input.id} for this key`));
  if (row.ended_at === null) await deps.monitoring.endRecord(row.id, input.accountId, deps.now().toISOString());
  return ok(await recordView(deps, (await deps.monitoring.record(input.id, input.accountId))!));
}

// ---------------------------------------------------------------------------------------------
// Webhooks

function webhookView(w: WebhookRow): Record<string, unknown> {
  return {
    id: w.id, url: w.url, description: w.description, created_at: w.created_at,
    links: { self: `/monitoring/${w.record_id}/webhooks/${w.id}` },
  };
}

/** The webhook's signing secret opened from its seal (the webhook's id is its context); undefined when it cannot be. */
function openedSecret(deps: Pick<AppDeps, 'config'>, hook: WebhookRow): string | undefined {
  return open({ keyId: hook.secret_key_id, sealed: hook.secret_sealed }, hook.id, deps.config.sealing.keys);
}

/**
 * POST /monitoring/{id}/webhooks: the receiver's address checked (as written and as it resolves
 * now); the secret sealed at rest and shown once. An environment with no sealing key cannot keep a
 * secret: 503, nothing stored.
 */
export async function addWebhook(
  deps: Pick<AppDeps, 'monitoring' | 'targets' | 'now' | 'config'>,
  input: { accountId: string; recordId: string; url: string; description?: string },
): Promise<Result<Record<string, unknown>>> {
  const record = await deps.monitoring.record(input.recordId, input.accountId);
  if (!record) return refused(refusals.notFound(`No monitoring record ${input.recordId} for this key`));
  if (record.ended_at !== null) {
    const fault = `monitoring record ${record.id} was ended at ${record.ended_at}; nothing more is delivered for it`;
    return refused(refusals.invalidRequest(422, `The webhook cannot be registered: ${fault}.`, [fault]));
  }
  const faults = await deps.targets.faults(input.url);
  if (faults.length > 0) return refused(refusals.invalidRequest(422, `The webhook url is refused: ${faults.join('; ')}.`, faults.map((f) => `url: ${f}`)));
  const existing = await deps.monitoring.webhooks(record.id);
  if (existing.length >= WEBHOOKS_PER_RECORD) {
    const fault = `a record holds at most ${WEBHOOKS_PER_RECORD} webhooks; remove one first`;
    return refused(refusals.invalidRequest(422, `The webhook cannot be registered: ${fault}.`, [fault]));
  }
  const id = `wh_${createHash('sha256').update(randomUUID()).digest('hex').slice(0, 24)}`;
  const secret = newSecret();
  const sealed = seal(secret, id, deps.config.sealing.keys);
  if (!sealed) {
    return refused(refusal(503, 'server_error', 'This environment holds no sealing key, so it cannot keep a webhook\'s signing secret: '
      + 'webhooks cannot be registered until its operator sets CATRISK_SEALING_KEY.'));
  }
  const row: WebhookRow = {
    id,
    record_id: record.id,
    account_id: input.accountId,
    url: input.url,
    description: input.description ?? null,
    secret_sealed: sealed.sealed,
    secret_key_id: sealed.keyId,
    created_at: deps.now().toISOString(),
  };
  await deps.monitoring.insertWebhook(row);
  return ok({
    schema_version: MONITORING_SCHEMA_VERSION,
    ...webhookView(row),
    record_id: record.id,
    secret,
    secret_note: 'Shown in this answer only: verify each delivery\'s webhook-signature with it (Standard Webhooks 1.0).',
  });
}

/** GET /monitoring/{id}/webhooks: every webhook with its delivery log, each attempt with its time, status or error, and duration. */
export async function listWebhooks(deps: Pick<AppDeps, 'monitoring'>, input: { accountId: string; recordId: string }): Promise<Result<Record<string, unknown>>> {
  const record = await deps.monitoring.record(input.recordId, input.accountId);
  if (!record) return refused(refusals.notFound(`No monitoring record ${input.recordId} for this key`));
  const hooks = await deps.monitoring.webhooks(record.id);
  const deliveries = await deps.monitoring.deliveries(hooks.map((h) => h.id));
  const attempts = await deps.monitoring.attempts(deliveries.map((d) => d.id));
  return ok({
    schema_version: MONITORING_SCHEMA_VERSION,
    record_id: record.id,
    webhooks: hooks.map((h) => ({
      ...webhookView(h),
      deliveries: deliveries.filter((d) => d.webhook_id === h.id).map((d) => ({
        id: d.id,
        event_type: d.event_type,
        status: d.status,
        created_at: d.created_at,
        next_attempt_at: d.next_attempt_at,
        payload: JSON.parse(d.body) as unknown,
        attempts: attempts.filter((a) => a.delivery_id === d.id).map((a) => ({
          attempt: a.attempt, at: a.at, duration_ms: a.duration_ms, http_status: a.http_status, error: a.error,
        })),
      })),
    })),
    links: { self: `/monitoring/${record.id}/webhooks`, record: `/monitoring/${record.id}` },
  });
}

/** DELETE /monitoring/{id}/webhooks/{webhook_id}: the webhook and its log are removed; pending retries stop. */
export async function removeWebhook(deps: Pick<AppDeps, 'monitoring'>, input: { accountId: string; recordId: string; webhookId: string }): Promise<Result<null>> {
  const record = await deps.monitoring.record(input.recordId, input.accountId);
  if (!record) return refused(refusals.notFound(`No monitoring record ${input.recordId} for this key`));
  if (!(await deps.monitoring.deleteWebhook(record.id, input.webhookId))) return refused(refusals.notFound(`No webhook ${input.webhookId} on monitoring record ${record.id}`));
  return ok(null);
}

// ---------------------------------------------------------------------------------------------
// A newly pinned snapshot: measure, compare, deliver

/** The body of a delivery: Standard Webhooks' {type, timestamp, data}; data holds no payout claim. */
function eventBody(type: EventType, at: Date, row: MonitoringRecordRow, m: Measurement, before: MeasurementMark): string {
  return JSON.stringify({
    type,
    timestamp: at.toISOString(),
    data: {
      record_id: row.id,
      structure_id: row.structure_id,
      label: row.label,
      term: { from: m.term.from, to: m.term.to },
      feed: m.feed,
      as_of: m.as_of,
      index: { value: m.index.value, unit: m.index.unit, event_id: m.index.event_id },
      distance_to_attachment: m.distance_to_attachment,
      previous: { feed_version: before.feed_version, index_value: before.index_value, distance_to_attachment: before.distance_to_attachment },
    },
  });
}

/**
 * The records on these feeds (every account's, not ended) measured against their newest snapshot
 * and compared with the measurement stored last; where it moved (domain/monitoring/measure.ts
 * moveOf), one delivery per webhook is queued. The stored measurement is swapped under
 * compare-and-set, so when several processes notice the same snapshot one of them delivers.
 * Answers how many deliveries were queued.
 */
export async function sweepFeeds(
  deps: Pick<AppDeps, 'structures' | 'monitoring' | 'feeds' | 'now' | 'jobs' | 'wakeWorker'>,
  feedIds: readonly string[],
): Promise<number> {
  let queued = 0;
  for (const row of await deps.monitoring.recordsOnFeeds(feedIds)) {
    const structure = await deps.structures.get(row.structure_id, row.account_id);
    if (!structure) continue;
    const measured = await measureRecord(deps, structure, { from: row.in_force_from, to: row.in_force_to });
    if (!measured.ok) continue;
    const next = markOf(measured.value);
    const before = row.last_measurement === null ? null : JSON.parse(row.last_measurement) as MeasurementMark;
    if (before && before.feed_version === next.feed_version && before.sha256 === next.sha256 && before.term.from === next.term.from) continue;
    if (!(await deps.monitoring.swapMeasurement(row.id, row.last_measurement, canonicalJson(next)))) continue;
    const move = before ? moveOf(before, next) : null;
    if (!move) continue;
    const at = deps.now();
    const body = eventBody(move, at, row, measured.value, before!);
    for (const hook of await deps.monitoring.webhooks(row.id)) {
      const id = `msg_${randomUUID().replace(/-/g, '')}`;
      await deps.monitoring.insertDelivery({
        id, webhook_id: hook.id, record_id: row.id, event_type: move, body, status: 'pending', created_at: at.toISOString(), next_attempt_at: at.toISOString(),
      });
      await queueJob(deps, { accountId: row.account_id, verb: 'webhook_delivery', subject: { record_id: row.id, webhook_id: hook.id, delivery_id: id }, input: { delivery_id: id, attempt: 1 } });
      queued += 1;
    }
  }
  return queued;
}

/** The wait before retry n (1 = the first retry), jittered by ±20%, or null when the schedule is spent. */
export function retryDelayMs(schedule: readonly number[], retry: number, u: number): number | null {
  const seconds = schedule[retry - 1];
  return seconds === undefined ? null : Math.round(seconds * 1000 * (0.8 + 0.4 * u));
}

/**
 * The webhook_delivery job: one attempt, POSTed with Standard Webhooks headers (a fresh timestamp
 * and signature, the same webhook-id and body every time) under the address rule; logged; a
 * non-2xx answer or a network error queues the next attempt after the schedule's wait.
 */
export async function deliveryJob(
  deps: Pick<AppDeps, 'monitoring' | 'targets' | 'jobs' | 'wakeWorker' | 'now' | 'config'>,
  job: { accountId: string; input: { delivery_id: string; attempt: number } },
): Promise<Result<unknown>> {
  const { delivery_id: deliveryId, attempt } = job.input;
  const delivery = await deps.monitoring.delivery(deliveryId);
  if (!delivery || delivery.status !== 'pending') return ok({ delivery_id: deliveryId, attempt, outcome: 'nothing_to_send' });
  const hook = await deps.monitoring.webhook(delivery.webhook_id);
  if (!hook) return ok({ delivery_id: deliveryId, attempt, outcome: 'webhook_removed' });
  const record = await deps.monitoring.record(delivery.record_id, job.accountId);
  if (!record || record.ended_at !== null) {
    // An ended record is told nothing more, retries included.
    await deps.monitoring.stopDelivery(delivery.id);
    return ok({ delivery_id: deliveryId, attempt, outcome: 'record_ended' });
  }
  const at = deps.now();
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  const secret = openedSecret(deps, hook);
  if (secret === undefined) {
    // Nothing is sent unsigned or signed with anything but the secret issued: the attempt is
    // logged as failed and retried on the schedule (a key given back in time lets a retry go).
    const reason = unopenableReason({ keyId: hook.secret_key_id, sealed: hook.secret_sealed }, deps.config.sealing.keys);
    error = `unsealable: the webhook's signing secret cannot be opened (${reason}); nothing was sent`;
  } else {
    try {
      const answer = await deps.targets.send(hook.url, { method: 'POST', headers: signedHeaders(secret, delivery.id, at, delivery.body), body: delivery.body },
        { name: 'webhook receiver', timeoutMs: deps.config.monitoring.deliveryTimeoutMs, maxBytes: RECEIVER_ANSWER_BYTES });
      status = answer.status;
    } catch (e) {
      const failure = (e as { failure?: unknown }).failure;
      if (typeof failure !== 'string') throw e;
      error = `${failure}: ${(e as Error).message}`;
    }
  }
  const duration = Math.round(performance.now() - started);
  const delivered = status !== null && status >= 200 && status < 300;
  const wait = delivered ? null : retryDelayMs(deps.config.monitoring.retrySeconds, attempt, Math.random());
  const nextAt = wait === null ? null : new Date(at.getTime() + duration + wait);
  await deps.monitoring.recordAttempt(
    { delivery_id: delivery.id, attempt, at: at.toISOString(), duration_ms: duration, http_status: status, error },
    { status: delivered ? 'delivered' : nextAt ? 'pending' : 'failed', next_attempt_at: nextAt?.toISOString() ?? null },
  );
  if (nextAt) {
    await queueJob(deps, {
      accountId: job.accountId, verb: 'webhook_delivery', notBefore: nextAt.getTime(),
      subject: { record_id: delivery.record_id, webhook_id: hook.id, delivery_id: delivery.id },
      input: { delivery_id: delivery.id, attempt: attempt + 1 },
    });
  }
  return ok({ delivery_id: delivery.id, attempt, http_status: status, error, outcome: delivered ? 'delivered' : nextAt ? 'retry_queued' : 'given_up', next_attempt_at: nextAt?.toISOString() ?? null });
}


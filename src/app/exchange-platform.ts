// The provider protocol a connector speaks (schemas/protocols/exchange-provider.v0.json), over the
// port for user-named targets: every call is checked inside its connection against the address
// rule, and redirects are not followed. A call that gives no usable answer throws PlatformError,
// whose message says which step failed and never carries the credentials.
import type { TargetCallLimits, UserNamedTargets } from '../providers/ports.js';

export class PlatformError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'PlatformError';
  }
}

export interface PlatformConnector {
  readonly base_url: string;
  readonly model_ref: string;
  readonly credentials: string;
}

export type PlatformRunStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface PlatformRun {
  readonly run_ref: string;
  readonly status: PlatformRunStatus;
  readonly message?: string;
}

const CALL: TargetCallLimits = { name: "the provider's platform", timeoutMs: 10_000, maxBytes: 1024 * 1024 };
const RESULT: TargetCallLimits = { ...CALL, maxBytes: 16 * 1024 * 1024 };
const REF = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;

/** One protocol call: the status and JSON body answered (any status is an answer; OutboundError passes through). */
async function call(targets: UserNamedTargets, connector: PlatformConnector, path: string, body?: unknown, limits = CALL): Promise<{ status: number; json: unknown }> {
  const url = `${connector.base_url.replace(/\/+$/, '')}${path}`;
  const answer = await targets.send(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${connector.credentials}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }, limits);
  let json: unknown;
  try {
    json = answer.body.length > 0 ? JSON.parse(answer.body.toString('utf8')) : undefined;
  } catch {
    json = undefined;
  }
  return { status: answer.status, json };
}

function runOf(json: unknown, what: string): PlatformRun {
  const run = json as Partial<PlatformRun> | undefined;
  if (!run || typeof run.run_ref !== 'string' || !REF.test(run.run_ref) || !['queued', 'running', 'succeeded', 'failed'].includes(run.status as string)) {
    throw new PlatformError(`The provider's platform answered ${what} without a run_ref and a status (queued, running, succeeded or failed).`);
  }
  return { run_ref: run.run_ref, status: run.status as PlatformRunStatus, ...(typeof run.message === 'string' ? { message: run.message.slice(0, 500) } : {}) };
}

/** GET /v1/account: the status answered (200: the credentials are good). */
export async function login(targets: UserNamedTargets, connector: PlatformConnector): Promise<number> {
  return (await call(targets, connector, '/v1/account')).status;
}

/** GET /v1/models/{model_ref}: the status answered (200: the model is there for these credentials). */
export async function findModel(targets: UserNamedTargets, connector: PlatformConnector): Promise<number> {
  return (await call(targets, connector, `/v1/models/${encodeURIComponent(connector.model_ref)}`)).status;
}

export async function submitRun(targets: UserNamedTargets, connector: PlatformConnector, body: { run_id: string; exposure: { points: unknown[] }; parameters: unknown }): Promise<PlatformRun> {
  const answer = await call(targets, connector, `/v1/models/${encodeURIComponent(connector.model_ref)}/runs`, body);
  if (answer.status < 200 || answer.status > 202) throw new PlatformError(`The provider's platform refused the run: HTTP ${answer.status} to POST /v1/models/${connector.model_ref}/runs.`, answer.status);
  return runOf(answer.json, 'the run submitted');
}

export async function pollRun(targets: UserNamedTargets, connector: PlatformConnector, runRef: string): Promise<PlatformRun> {
  const answer = await call(targets, connector, `/v1/runs/${encodeURIComponent(runRef)}`);
  if (answer.status !== 200) throw new PlatformError(`The provider's platform answered HTTP ${answer.status} to GET /v1/runs/${runRef}.`, answer.status);
  return runOf(answer.json, `GET /v1/runs/${runRef}`);
}

export async function fetchResult(targets: UserNamedTargets, connector: PlatformConnector, runRef: string): Promise<Record<string, unknown>> {
  const answer = await call(targets, connector, `/v1/runs/${encodeURIComponent(runRef)}/result`, undefined, RESULT);
  if (answer.status !== 200) throw new PlatformError(`The provider's platform answered HTTP ${answer.status} to GET /v1/runs/${runRef}/result.`, answer.status);
  if (answer.json === null || typeof answer.json !== 'object' || Array.isArray(answer.json)) throw new PlatformError(`The provider's platform answered a result that is not a JSON object.`);
  return answer.json as Record<string, unknown>;
}

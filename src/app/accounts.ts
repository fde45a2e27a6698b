// Accounts, keys, usage and the subscription (SPEC: Account and key, Authentication, Limits).
import type { Account } from '../store/accounts.js';
import { refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { ACCOUNT_SCHEMA_VERSION, USAGE_SCHEMA_VERSION } from '../kernel/versions.js';
import type { AppDeps } from './deps.js';

type Document = Record<string, unknown>;

/** Metered verbs refuse a cancelled account on the request. */
export async function requireActive(deps: Pick<AppDeps, 'accounts'>, accountId: string): Promise<Result<Account>> {
  const account = await deps.accounts.account(accountId);
  if (!account) return refused(refusals.unauthenticated('This key\'s account no longer exists.'));
  if (account.status !== 'active') return refused(refusals.accountCancelled());
  return ok(account);
}

function accountView(account: Account): Document {
  const view: Document = {
    schema_version: ACCOUNT_SCHEMA_VERSION,
    id: account.id,
    created_at: account.created_at,
    plan: account.plan,
    status: account.status,
  };
  if (account.label !== null) view.label = account.label;
  if (account.email !== null) view.email = account.email;
  if (account.cancelled_at !== null) view.cancelled_at = account.cancelled_at;
  return view;
}

/** A new account and its first key; the secret is shown this once. */
export async function signup(deps: Pick<AppDeps, 'accounts'>, input: { email?: string; label?: string }): Promise<Result<Document>> {
  const { account, key } = await deps.accounts.signup(input);
  return ok({
    ...accountView(account),
    api_key: { id: key.id, secret: key.secret, created_at: key.created_at, scheme: 'Bearer', expires_at: null },
  });
}

export async function accountDocument(deps: Pick<AppDeps, 'accounts'>, accountId: string): Promise<Result<Document>> {
  const found = await deps.accounts.accountWithKeys(accountId);
  if (!found) return refused(refusals.notFound('No such account for this key'));
  const { account, keys } = found;
  return ok({
    ...accountView(account),
    api_keys: keys.map((k) => ({ id: k.id, created_at: k.created_at, scheme: 'Bearer', expires_at: null })),
  });
}

/** Units used against the sandbox allowance; once cancelled, the final invoice too. */
export async function usageDocument(deps: Pick<AppDeps, 'accounts' | 'config'>, accountId: string): Promise<Result<Document>> {
  const account = await deps.accounts.account(accountId);
  if (!account) return refused(refusals.notFound('No such account for this key'));
  const records = await deps.accounts.usage(accountId);
  const objects = records.filter((r) => r.unit === 'object').length;
  const modelRuns = records.filter((r) => r.unit === 'model_run').length;
  const total = objects + modelRuns;
  const allowance = deps.config.sandboxUnits;
  const doc: Document = {
    schema_version: USAGE_SCHEMA_VERSION,
    account_id: account.id,
    plan: account.plan,
    status: account.status,
    metering: account.status === 'active' ? 'on' : 'stopped',
    units: { objects, model_runs: modelRuns, total },
    allowance: { units: allowance, used: Math.min(total, allowance), remaining: Math.max(0, allowance - total) },
    billable_units: Math.max(0, total - allowance),
    records: records.map((r) => ({ unit: r.unit, subject_id: r.subject_id, recorded_at: r.recorded_at })),
    payment: 'Payment processing is outside the service and in test mode; no money is held or taken.',
  };
  if (account.status === 'cancelled') {
    doc.final_invoice = {
      issued_at: account.cancelled_at,
      units: { objects, model_runs: modelRuns, total },
      included_units: Math.min(total, allowance),
      billable_units: Math.max(0, total - allowance),
      test_mode: true,
      note: 'Settles every unit recorded before cancellation; nothing further is recorded.',
    };
  }
  return ok(doc);
}

/** Cancels the plan: metering stops, and the usage document carries the final invoice. */
export async function cancelPlan(deps: Pick<AppDeps, 'accounts' | 'config'>, accountId: string): Promise<Result<Document>> {
  await deps.accounts.cancel(accountId);
  return usageDocument(deps, accountId);
}

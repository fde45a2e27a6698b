// Accounts, keys, usage and the subscription (SPEC: Account and key, Authentication, Limits).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import type { Account } from '../../store/accounts.js';
import { refusals } from '../../kernel/refusal.js';
import type { Caller } from '../host.js';
import { ACCOUNT_SCHEMA_VERSION, USAGE_SCHEMA_VERSION } from '../../kernel/versions.js';
import { cancelSubscription, readAccount, readUsage, signup } from '../schemas/accounts.js';


/** The caller of a keyed route; the edge has already authenticated it. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw refusals.unauthenticated('This route needs a Bearer key.');
  return request.caller;
}

/** Metered verbs refuse a cancelled account on the request. */
export async function requireActive(services: Services, request: FastifyRequest): Promise<Account> {
  const account = await services.accounts.account(callerOf(request).accountId);
  if (!account) throw refusals.unauthenticated('This key\'s account no longer exists.');
  if (account.status !== 'active') throw refusals.accountCancelled();
  return account;
}

function accountView(account: Account) {
  const view: Record<string, unknown> = {
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

export function accountRoutes(app: FastifyInstance, services: Services) {
  app.post('/signup', { ...signup, config: { auth: 'none' } }, async (request, reply) => {
    const body = (request.body ?? {}) as { email?: string; label?: string };
    const { account, key } = await services.accounts.signup(body);
    return reply.code(201).send({
      ...accountView(account),
      api_key: { id: key.id, secret: key.secret, created_at: key.created_at, scheme: 'Bearer', expires_at: null },
    });
  });

  app.get('/account', readAccount, async (request) => {
    const found = await services.accounts.accountWithKeys(callerOf(request).accountId);
    if (!found) throw refusals.notFound('No such account for this key');
    const { account, keys } = found;
    return {
      ...accountView(account),
      api_keys: keys.map((k) => ({ id: k.id, created_at: k.created_at, scheme: 'Bearer', expires_at: null })),
    };
  });

  app.get('/usage', readUsage, async (request) => usageDocument(services, callerOf(request).accountId));

  app.delete('/subscription', cancelSubscription, async (request) => {
    const { accountId } = callerOf(request);
    await services.accounts.cancel(accountId);
    return usageDocument(services, accountId);
  });
}

async function usageDocument(services: Services, accountId: string) {
  const account = await services.accounts.account(accountId);
  if (!account) throw refusals.notFound('No such account for this key');
  const records = await services.accounts.usage(accountId);
  const objects = records.filter((r) => r.unit === 'object').length;
  const modelRuns = records.filter((r) => r.unit === 'model_run').length;
  const total = objects + modelRuns;
  const allowance = services.config.sandboxUnits;
  const doc: Record<string, unknown> = {
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
  return doc;
}

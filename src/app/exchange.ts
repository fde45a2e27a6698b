// The model exchange (SPEC: What the service does 8, Exchange listing states, the exchange routes):
// listings written by their providers, connectors checked under the address rule, credentials
// sealed, the states a person decides, grants, and the connector the lab reads through the
// internal route. The service never holds a provider's model and never takes or passes on money.
import { randomBytes } from 'node:crypto';
import { canonicalJson } from '../kernel/canonical-json.js';
import { refusal, refusals, type Refusal } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { EXCHANGE_CHECK_SCHEMA_VERSION, EXCHANGE_CONNECTOR_SCHEMA_VERSION, EXCHANGE_GRANTS_SCHEMA_VERSION, EXCHANGE_LISTING_SCHEMA_VERSION } from '../kernel/versions.js';
import { LISTING_ID, move, patchedTerms, type ListingState, type ListingStep, type ListingTerms } from '../domain/exchange/listing.js';
import { open, seal, unopenableReason } from '../domain/sealing.js';
import { exchangeListingViolations } from '../schemas.js';
import type { ListingRow } from '../store/exchange.js';
import { findModel, login } from './exchange-platform.js';
import type { AppDeps } from './deps.js';

type Deps = Pick<AppDeps, 'exchange' | 'targets' | 'config' | 'now'>;
type Document = Record<string, unknown>;

const notFound = (id: string) => refusals.notFound(`No exchange model ${id} for this key`);

const notReady = (message: string) => refusal(422, 'exchange_not_ready', message);

/** The listing as answered: its terms, state and whether credentials are stored, never the credentials. */
function listingView(row: ListingRow, forProvider: boolean): Document {
  const terms = JSON.parse(row.terms) as ListingTerms;
  return {
    schema_version: EXCHANGE_LISTING_SCHEMA_VERSION,
    id: row.id,
    state: row.state,
    ...terms,
    connector: { ...terms.connector, credentials_stored: row.credentials_sealed !== null },
    run_by: 'The provider, on its own platform: the service never holds the model\'s files and never takes or passes on money.',
    ...(forProvider && row.state === 'rejected' && row.review_note ? { review: { reason: row.review_note } } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    links: { self: `/exchange/models/${row.id}`, ...(forProvider ? { grants: `/exchange/models/${row.id}/grants` } : {}) },
  };
}

/** A listing the caller provides; not found for anyone else (whatever its state). */
async function provided(deps: Pick<AppDeps, 'exchange'>, id: string, accountId: string): Promise<Result<ListingRow>> {
  const row = LISTING_ID.test(id) ? await deps.exchange.get(id) : undefined;
  if (!row || row.account_id !== accountId) return refused(notFound(id));
  return ok(row);
}

/** Faults of a connector's base URL under the address rule (URL as written and every address it resolves to). */
async function unsafeAddress(deps: Pick<AppDeps, 'targets'>, baseUrl: string): Promise<Refusal | undefined> {
  const faults = await deps.targets.faults(baseUrl, { refuseQueryAndFragment: true });
  if (faults.length === 0) return undefined;
  return refusal(422, 'unsafe_platform_address', `connector.base_url may not be called: ${faults.join('; ')}.`, faults);
}

const credentialsUnsealable = () => refusal(422, 'exchange_credentials_unavailable',
  'This environment holds no key to encrypt connector.credentials (neither CATRISK_SEALING_KEY nor CATRISK_EXCHANGE_KEY is set): send the listing without connector.credentials.');

/** Checks a whole listing (schema, address rule, sealing key), the credentials sent apart from the terms. */
async function checkedTerms(deps: Deps, written: Record<string, unknown>, checkAddress: boolean): Promise<Result<{ terms: ListingTerms; credentials: string | undefined }>> {
  const faults = exchangeListingViolations(written);
  if (faults.length > 0) return refused(refusal(422, 'invalid_exchange_model', `The listing does not validate against the exchange listing schema: ${faults.join('; ')}.`, faults));
  const { credentials, ...connector } = written.connector as ListingTerms['connector'] & { credentials?: string };
  if (checkAddress) {
    const unsafe = await unsafeAddress(deps, connector.base_url);
    if (unsafe) return refused(unsafe);
  }
  if (credentials !== undefined && deps.config.sealing.keys.length === 0) return refused(credentialsUnsealable());
  return ok({ terms: { ...(written as unknown as ListingTerms), connector }, credentials });
}

function sealed(deps: Deps, credentials: string, id: string): { credentials_sealed: string; credentials_key_id: string } {
  const value = seal(credentials, id, deps.config.sealing.keys)!;
  return { credentials_sealed: value.sealed, credentials_key_id: value.keyId };
}

/** POST /exchange/models: a draft listing of the caller's. */
export async function createListing(deps: Deps, input: { accountId: string; body: unknown }): Promise<Result<Document>> {
  const checked = await checkedTerms(deps, (input.body ?? {}) as Record<string, unknown>, true);
  if (!checked.ok) return checked;
  const { terms, credentials } = checked.value;
  const id = `xm_${randomBytes(8).toString('hex')}`;
  const at = deps.now().toISOString();
  const row: ListingRow = {
    id, account_id: input.accountId, name: terms.name, state: 'draft', terms: canonicalJson(terms),
    credentials_sealed: null, credentials_key_id: null, review_note: null, created_at: at, updated_at: at,
    ...(credentials !== undefined ? sealed(deps, credentials, id) : {}),
  };
  await deps.exchange.insert(row);
  return ok(listingView(row, true));
}

/** PATCH /exchange/models/{id}: the members sent replace the stored ones (connector's one by one), in any state. */
export async function patchListing(deps: Deps, input: { accountId: string; id: string; body: Record<string, unknown> }): Promise<Result<Document>> {
  const own = await provided(deps, input.id, input.accountId);
  if (!own.ok) return own;
  const stored = JSON.parse(own.value.terms) as ListingTerms;
  const merged = patchedTerms(stored, input.body);
  const connectorSent = input.body.connector as { base_url?: unknown } | undefined;
  const checked = await checkedTerms(deps, merged, typeof connectorSent?.base_url === 'string');
  if (!checked.ok) return checked;
  const { terms, credentials } = checked.value;
  const change = {
    name: terms.name, terms: canonicalJson(terms), updated_at: deps.now().toISOString(),
    ...(credentials !== undefined ? sealed(deps, credentials, input.id) : {}),
  };
  if (!(await deps.exchange.update(input.id, change))) return refused(notFound(input.id));
  return ok(listingView({ ...own.value, ...change }, true));
}

/** GET /exchange/models/{id}: a listed model for anyone; the provider's own in any state. */
export async function readListing(deps: Pick<AppDeps, 'exchange'>, input: { accountId: string | undefined; id: string }): Promise<Result<Document>> {
  const row = LISTING_ID.test(input.id) ? await deps.exchange.get(input.id) : undefined;
  const mine = row !== undefined && row.account_id === input.accountId;
  if (!row || (!mine && row.state !== 'listed')) return refused(notFound(input.id));
  return ok(listingView(row, mine));
}

/** GET /exchange/models: every listed model, in name order (code point order, then id: the same on every database). */
export async function listListings(deps: Pick<AppDeps, 'exchange'>): Promise<Result<Document>> {
  const rows = (await deps.exchange.listed()).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
  return ok({ schema_version: EXCHANGE_LISTING_SCHEMA_VERSION, count: rows.length, models: rows.map((r) => listingView(r, false)) });
}

async function step(deps: Pick<AppDeps, 'exchange' | 'now'>, row: ListingRow, name: ListingStep, note: string | null = null): Promise<Result<ListingRow>> {
  const moved = move(row.state as ListingState, name, row.credentials_sealed !== null);
  if ('fault' in moved) return refused(notReady(moved.fault));
  const at = deps.now().toISOString();
  if (!(await deps.exchange.moveState(row.id, row.state, moved.to, at, note))) {
    return refused(notReady(`The listing moved while this step was taken; read it again (it was ${row.state}).`));
  }
  return ok({ ...row, state: moved.to, updated_at: at, review_note: note });
}

/** POST /exchange/models/{id}/review and /withdraw: the provider's steps. */
export async function providerStep(deps: Pick<AppDeps, 'exchange' | 'now'>, input: { accountId: string; id: string; step: 'review' | 'withdraw' }): Promise<Result<Document>> {
  const own = await provided(deps, input.id, input.accountId);
  if (!own.ok) return own;
  const moved = await step(deps, own.value, input.step);
  return moved.ok ? ok(listingView(moved.value, true)) : moved;
}

/** `catrisk exchange approve|reject <id>`: a person's decision on a listing in review. */
export async function decideListing(deps: Pick<AppDeps, 'exchange' | 'now'>, input: { id: string; decision: 'approve' | 'reject'; reason?: string }): Promise<Result<Document>> {
  const row = LISTING_ID.test(input.id) ? await deps.exchange.get(input.id) : undefined;
  if (!row) return refused(refusals.notFound(`No exchange model ${input.id}`));
  if (input.decision === 'reject' && !input.reason?.trim()) return refused(refusals.invalidRequest(422, 'A rejection needs --reason, shown to the provider.'));
  const moved = await step(deps, row, input.decision, input.decision === 'reject' ? input.reason!.trim() : null);
  return moved.ok ? ok(listingView(moved.value, true)) : moved;
}

// ---- grants ----

async function grantsDocument(deps: Pick<AppDeps, 'exchange'>, row: ListingRow): Promise<Document> {
  const grants = await deps.exchange.grants(row.id);
  const terms = JSON.parse(row.terms) as ListingTerms;
  return { schema_version: EXCHANGE_GRANTS_SCHEMA_VERSION, model_id: row.id, access: terms.access, count: grants.length, grants };
}

/** GET, PUT and DELETE /exchange/models/{id}/grants[/{account_id}]: the provider's only. */
export async function grants(deps: Pick<AppDeps, 'exchange' | 'now'>, input: { accountId: string; id: string; change?: { grant: boolean; accountId: string } }): Promise<Result<Document>> {
  const own = await provided(deps, input.id, input.accountId);
  if (!own.ok) return own;
  const { change } = input;
  if (change?.grant) {
    if ((JSON.parse(own.value.terms) as ListingTerms).access === 'free') {
      return refused(notReady('The listing is free: every account may run it, so a grant would be read by nothing. PATCH access to by_grant first.'));
    }
    await deps.exchange.grant(input.id, change.accountId, deps.now().toISOString());
  } else if (change) {
    await deps.exchange.revoke(input.id, change.accountId);
  }
  return ok(await grantsDocument(deps, own.value));
}

// ---- credentials, check and the lab's connector ----

/** The stored credentials opened, undefined when none are stored; 503 when they cannot be opened here. */
function openedCredentials(deps: Pick<AppDeps, 'config'>, row: ListingRow): Result<string | undefined> {
  if (row.credentials_sealed === null || row.credentials_key_id === null) return ok(undefined);
  const value = { keyId: row.credentials_key_id, sealed: row.credentials_sealed };
  const plain = open(value, row.id, deps.config.sealing.keys);
  if (plain === undefined) {
    return refused(refusal(503, 'exchange_credentials_unavailable',
      `The listing's stored credentials cannot be decrypted: ${unopenableReason(value, deps.config.sealing.keys)} (CATRISK_SEALING_KEY, CATRISK_SEALING_KEYS_PREVIOUS). PATCH connector.credentials to store them again.`));
  }
  return ok(plain);
}

interface CheckStep { step: string; status: 'passed' | 'failed' | 'skipped'; ms: number | null; detail: string; [more: string]: unknown }

// The outbound client's messages name the step and the platform, never a header sent.
const outboundDetail = (error: unknown) => (error instanceof Error && error.name === 'OutboundError' ? error.message : 'the call failed');

/** POST /exchange/models/{id}/check: can the service reach the platform, log in and find the model? Step by step, each timed. */
export async function checkListing(deps: Deps, input: { accountId: string; id: string }): Promise<Result<Document>> {
  const own = await provided(deps, input.id, input.accountId);
  if (!own.ok) return own;
  const credentials = openedCredentials(deps, own.value);
  if (!credentials.ok) return credentials;
  const { connector } = JSON.parse(own.value.terms) as ListingTerms;
  const steps: CheckStep[] = [];
  const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const started = performance.now();
    const value = await work();
    return { value, ms: Math.round((performance.now() - started) * 10) / 10 };
  };
  const skip = (name: string) => steps.push({ step: name, status: 'skipped', ms: null, detail: 'not tried: an earlier step failed' });

  const address = await timed(() => deps.targets.faults(connector.base_url, { refuseQueryAndFragment: true }));
  steps.push(address.value.length === 0
    ? { step: 'address', status: 'passed', ms: address.ms, detail: 'https, no user name, query or fragment, not a local name, every address public' }
    : { step: 'address', status: 'failed', ms: address.ms, detail: address.value.join('; ') });
  const probe = address.value.length === 0 ? await deps.targets.probe(connector.base_url, 10_000) : undefined;
  if (probe) {
    steps.push(probe.dns.ok
      ? { step: 'dns', status: 'passed', ms: probe.dns.ms, detail: `resolved to ${probe.dns.addresses.join(', ')}`, addresses: probe.dns.addresses }
      : { step: 'dns', status: 'failed', ms: probe.dns.ms, detail: probe.dns.fault });
    if (probe.connect) {
      steps.push(probe.connect.ok
        ? { step: 'tls_connect', status: 'passed', ms: probe.connect.ms, detail: `connected to ${probe.connect.address}${probe.connect.tls ? ` over ${probe.connect.tls}, certificate verified` : ''}` }
        : { step: 'tls_connect', status: 'failed', ms: probe.connect.ms, detail: probe.connect.fault });
    } else skip('tls_connect');
  } else {
    skip('dns');
    skip('tls_connect');
  }
  const reached = probe?.connect?.ok === true;
  let loggedIn = false;
  if (!reached) skip('login');
  else if (credentials.value === undefined) steps.push({ step: 'login', status: 'failed', ms: null, detail: 'no credentials are stored: PATCH connector.credentials' });
  else {
    const platform = { ...connector, credentials: credentials.value };
    const answered = await timed(() => login(deps.targets, platform).catch((e: unknown) => outboundDetail(e)));
    const status = answered.value;
    loggedIn = status === 200;
    steps.push(typeof status === 'string'
      ? { step: 'login', status: 'failed', ms: answered.ms, detail: status }
      : { step: 'login', status: loggedIn ? 'passed' : 'failed', ms: answered.ms, detail: loggedIn ? 'GET /v1/account answered 200 with the stored credentials' : `GET /v1/account answered HTTP ${status}${status === 401 || status === 403 ? ': the platform refused the stored credentials' : ''}` });
  }
  if (!loggedIn) skip('model');
  else {
    const answered = await timed(() => findModel(deps.targets, { ...connector, credentials: credentials.value! }).catch((e: unknown) => outboundDetail(e)));
    const status = answered.value;
    steps.push(typeof status === 'string'
      ? { step: 'model', status: 'failed', ms: answered.ms, detail: status }
      : { step: 'model', status: status === 200 ? 'passed' : 'failed', ms: answered.ms, detail: status === 200 ? `the platform has the model ${connector.model_ref}` : `GET /v1/models/${connector.model_ref} answered HTTP ${status}${status === 404 ? ': the platform has no such model for these credentials' : ''}` });
  }
  return ok({
    schema_version: EXCHANGE_CHECK_SCHEMA_VERSION,
    model_id: own.value.id,
    checked_at: deps.now().toISOString(),
    ok: steps.every((s) => s.status === 'passed'),
    steps,
  });
}

/**
 * The internal connector route's answer: the connector of a listing an account may run (listed,
 * or its provider's own in any state), with its credentials opened. By grant: a provider's grant
 * or the provider itself.
 */
export async function connectorFor(deps: Pick<AppDeps, 'exchange' | 'config'>, input: { id: string; accountId: string }): Promise<Result<Document>> {
  const row = LISTING_ID.test(input.id) ? await deps.exchange.get(input.id) : undefined;
  const mine = row !== undefined && row.account_id === input.accountId;
  if (!row || (!mine && row.state !== 'listed')) return refused(refusals.notFound(`No exchange model ${input.id} for this key`));
  const terms = JSON.parse(row.terms) as ListingTerms;
  if (terms.access === 'by_grant' && !mine && !(await deps.exchange.granted(row.id, input.accountId))) {
    return refused(refusal(403, 'exchange_access_refused',
      `${terms.name} runs only for accounts its provider has granted, and this account is not granted; access is arranged with the provider, outside the service, at ${terms.access_url}.`,
      [`access_url: ${terms.access_url}`]));
  }
  if (row.credentials_sealed === null) return refused(notReady('The listing cannot run yet: its provider has not stored the connector credentials.'));
  const credentials = openedCredentials(deps, row);
  if (!credentials.ok) return credentials;
  return ok({
    schema_version: EXCHANGE_CONNECTOR_SCHEMA_VERSION,
    model_id: row.id,
    name: terms.name,
    provider: { name: terms.provider.name },
    base_url: terms.connector.base_url,
    model_ref: terms.connector.model_ref,
    credentials: credentials.value!,
  });
}

// The command line against a running service: each command run as a child process, the way a
// person runs it, over one service and one login. The client speaks HTTP only, so one storage
// dialect is enough here (the routes it calls are tested on both in test/http/).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { call, sharedService } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { bar, ProgressView } from '../../src/cli/progress.js';
import { endpointOf } from '../../src/cli/client.js';
import { mainArgs } from '../support/process.js';
import { CASE1_EXPOSURE, CASE1_GMFS, CASE1_SITES, CASE1_VULNERABILITY } from '../support/openquake-case1.js';

const scratch = mkdtempSync(join(tmpdir(), 'catrisk-cli-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Run { code: number | null; stdout: string; stderr: string }

/** Runs `catrisk ...args` as a child process (never synchronously: the service answers from this process). */
function catrisk(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CATRISK_') && k !== 'XDG_CONFIG_HOME')) as Record<string, string>;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, mainArgs(...args), { env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

const ok = (run: Run, what: string) => assert.equal(run.code, 0, `${what}: ${run.stderr}`);

test('login, ingest, structure, backtest, price and a lab run from the command line', async () => {
  const svc = await sharedService('sqlite');
  const config = join(scratch, 'config');
  const c = ['--config', config];

  // Sign up: the account is printed without its secret; the key is kept, readable by its owner only.
  const login = await catrisk(['login', '--label', 'cli desk', '--url', svc.api, '--lab-url', svc.urls.lab, ...c]);
  ok(login, 'login');
  const account = JSON.parse(login.stdout);
  assert.match(account.id, /^acct_/);
  assert.equal(account.label, 'cli desk');
  assert.equal(account.api_key.secret, undefined);
  const file = join(config, 'config.json');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const stored = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(stored.url, svc.api);
  assert.equal(stored.lab_url, svc.urls.lab);
  const key = stored.key as string;
  assert.equal((await call(svc.api, 'GET', '/account', { key })).body.id, account.id);

  // A real schedule, waited for; progress goes to stderr as plain lines (stderr is not a terminal).
  const ingest = await catrisk(['ingest', 'test/fixtures/schedules/01-acme-title-lines-dms.csv', '--currency', 'USD', '--wait', ...c]);
  ok(ingest, 'ingest');
  const ingestJob = JSON.parse(ingest.stdout);
  assert.equal(ingestJob.status, 'succeeded');
  assert.equal(ingestJob.subject.source, '01-acme-title-lines-dms.csv');
  assert.match(ingest.stderr, new RegExp(`job ${ingestJob.id} succeeded`));
  assert.doesNotMatch(ingest.stderr, /\r|\x1b/);
  const objectId = ingestJob.result.objects[0].id as string;
  const objectPath = `/objects/${objectId}`;
  const table = await catrisk(['job', ingestJob.id, '--format', 'table', ...c]);
  ok(table, 'job table');
  assert.match(table.stdout, new RegExp(`${objectId}\\s+${objectPath}`));

  // Terms written from a file, then structures cut from the object.
  const termsFile = join(scratch, 'object-terms.json');
  writeFileSync(termsFile, JSON.stringify(ACCEPTANCE_BODIES.earthquake));
  const written = await catrisk(['terms', objectId, '--file', termsFile, ...c]);
  ok(written, 'terms');
  assert.deepEqual(JSON.parse(written.stdout).trigger, (await call(svc.api, 'GET', objectPath, { key })).body.trigger);
  assert.deepEqual(JSON.parse(written.stdout).trigger.payout, (ACCEPTANCE_BODIES.earthquake as any).trigger.payout);
  // A stale version is refused as the API refuses it: exit 1, the envelope's code on stderr.
  const stale = await catrisk(['terms', objectId, '--file', termsFile, '--if-match', '"v0"', ...c]);
  assert.equal(stale.code, 1);
  assert.match(stale.stderr, /error 412 precondition_failed/);
  const missingFile = await catrisk(['terms', objectId, ...c]);
  assert.equal(missingFile.code, 2);
  assert.match(missingFile.stderr, /--file FILE/);
  // --format id: the structure's id alone, for a shell to keep.
  const own = await catrisk(['structure', objectId, '--format', 'id', ...c]);
  ok(own, 'structure');
  assert.match(own.stdout, /^str_[0-9a-z]+\n$/);
  const structure = (await call(svc.api, 'GET', `/structures/${own.stdout.trim()}`, { key })).body;
  assert.equal(structure.id, own.stdout.trim());
  assert.equal(structure.object_id, objectId);
  const terms = join(scratch, 'terms.json');
  writeFileSync(terms, JSON.stringify({ financial_structure: { currency: 'USD', limit: 20_000_000, attachment: 0 } }));
  const varied = await catrisk(['structure', objectId, '--terms', terms, '--format', 'table', ...c]);
  ok(varied, 'structure --terms');
  assert.match(varied.stdout, /^id\s+str_/m);
  assert.match(varied.stdout, /financial_structure\.limit\s+20,000,000/);

  // A backtest waited for, as JSON, as a table and as the API's CSV: the same years throughout.
  const window = ['--from-year', '1990', '--to-year', '2000'];
  const bt = await catrisk(['backtest', structure.id, ...window, '--wait', ...c]);
  ok(bt, 'backtest');
  const btJob = JSON.parse(bt.stdout);
  assert.equal(btJob.status, 'succeeded');
  const artifact = btJob.result;
  assert.equal(artifact.years.length, 11);
  const btTable = await catrisk(['backtest', structure.id, ...window, '--wait', '--format', 'table', ...c]);
  ok(btTable, 'backtest table');
  for (const y of artifact.years) {
    assert.match(btTable.stdout, new RegExp(`^${y.year}\\s+${y.payout === null ? '' : y.payout.toLocaleString('en-US')}`, 'm'), String(y.year));
  }
  assert.match(btTable.stdout, /1992\s+5,000,000\s+1\s+/);
  const btCsv = await catrisk(['backtest', structure.id, ...window, '--wait', '--format', 'csv', ...c]);
  ok(btCsv, 'backtest csv');
  const rows = parse(btCsv.stdout, { columns: true }) as Record<string, string>[];
  assert.deepEqual(rows.map((r) => Number(r.year)), artifact.years.map((y: any) => y.year));
  assert.deepEqual(rows.map((r) => (r.payout === '' ? null : Number(r.payout))), artifact.years.map((y: any) => y.payout));
  assert.equal((await catrisk(['job', btJob.id, '--format', 'csv', ...c])).stdout, btCsv.stdout);

  // A price, waited for.
  const price = await catrisk(['price', objectId, '--wait', '--format', 'table', ...c]);
  ok(price, 'price');
  const premium = (await call(svc.api, 'GET', objectPath, { key })).body.technical_premium.amount as number;
  assert.match(price.stdout, new RegExp(`technical premium\\s+${premium.toLocaleString('en-US', { maximumFractionDigits: 2 }).replace(/\./g, '\\.')}`));

  // A lab run, waited for, with its ORD exceedance table.
  const spec = join(scratch, 'spec.json');
  writeFileSync(spec, JSON.stringify({ model: 'oasislmf-windstorm', samples: 0, exposure: { points: [{ lat: 52.74, lon: -0.91, value: 1_000_000 }, { lat: 52.76, lon: -0.89, value: 250_000 }] } }));
  const lab = await catrisk(['lab', 'run', spec, '--wait', ...c]);
  ok(lab, 'lab run');
  const run = JSON.parse(lab.stdout);
  assert.equal(run.status, 'succeeded');
  assert.ok(run.result.metrics.average_annual_loss.mean > 0);
  assert.match(lab.stderr, /job [0-9a-f-]{36} succeeded/);
  const labTable = await catrisk(['lab', 'run', spec, '--wait', '--format', 'table', ...c]);
  ok(labTable, 'lab run table');
  assert.match(labTable.stdout, /average annual loss\s+[\d,.]+/);
  const ept = await catrisk(['lab', 'run', spec, '--wait', '--format', 'csv', ...c]);
  ok(ept, 'lab run csv');
  assert.deepEqual(Object.keys((parse(ept.stdout, { columns: true }) as object[])[0]!), ['SummaryId', 'EPCalc', 'EPType', 'ReturnPeriod', 'Loss']);

  // Every ORD table of a run with terms, written into a folder: gul, il and ri.
  const withTerms = join(scratch, 'spec-terms.json');
  writeFileSync(withTerms, JSON.stringify({ model: 'oasislmf-windstorm', samples: 0, exposure: { points: [{ lat: 52.74, lon: -0.91, value: 1_000_000 }] }, terms: { policy: { place_deductible: 1000 }, reinsurance: { quota_share: { ceded_share: 0.3 } } } }));
  const termsRun = await catrisk(['lab', 'run', withTerms, '--wait', '--format', 'id', ...c]);
  ok(termsRun, 'lab run with terms');
  assert.match(termsRun.stdout, /^run_[0-9a-f]+\n$/);
  const out = join(scratch, 'tables');
  const exported = await catrisk(['export', termsRun.stdout.trim(), '--all', out, '--format', 'id', ...c]);
  ok(exported, 'export --all');
  const names = exported.stdout.trim().split('\n').map((f) => f.slice(out.length + 1)).sort();
  assert.deepEqual(names, ['gul', 'il', 'ri'].flatMap((p) => ['alt', 'ept', 'melt', 'mplt', 'ylt'].map((t) => `${t}_${p}.csv`)).sort());
  const runPath = `/runs/${termsRun.stdout.trim()}`;
  for (const [table, perspective] of [['melt', 'il'], ['ept', 'gul'], ['mplt', 'ri'], ['ylt', 'gul']]) {
    const served = await fetch(`${svc.urls.lab}${runPath}?format=csv&table=${table}&perspective=${perspective}`, { headers: { authorization: `Bearer ${key}`, 'user-agent': 'catrisk-tests/1.0' } });
    assert.equal(readFileSync(join(out, `${table}_${perspective}.csv`), 'utf8'), await served.text(), `${table}_${perspective}`);
  }
  // A run without terms has its ground-up tables only.
  const gulOnly = await catrisk(['export', run.id, '--all', join(scratch, 'gul-only'), '--format', 'id', ...c]);
  ok(gulOnly, 'export gul only');
  assert.equal(gulOnly.stdout.trim().split('\n').length, 5);

  // An OED set ingested with its account and reinsurance files as their own parts (hand-made here: one
  // location in PiWind's grid, a 1,000 deductible, a 30% quota share); the windstorm lane applies its
  // terms, so the run holds il and ri and export --all writes their ORD tables though the spec has no terms.
  const oedDir = join(scratch, 'oed');
  mkdirSync(oedDir);
  const oedFile = (name: string, text: string) => { writeFileSync(join(oedDir, name), text); return join(oedDir, name); };
  const locFile = oedFile('location.csv', 'PortNumber,AccNumber,LocNumber,CountryCode,Latitude,Longitude,OccupancyCode,ConstructionCode,LocPerilsCovered,BuildingTIV,ContentsTIV,LocCurrency,LocDed6All\nP1,A1,L1,GB,52.74,-0.91,1050,5000,WW1,1000000,0,GBP,1000\n');
  const accFile = oedFile('account.csv', 'PortNumber,AccNumber,PolNumber,PolPerilsCovered\nP1,A1,POL1,AA1\n');
  const riInfo = oedFile('ri_info.csv', 'ReinsNumber,CededPercent,RiskLimit,RiskAttachment,OccLimit,OccAttachment,PlacedPercent,InuringPriority,ReinsType,RiskLevel\n1,0.3,0,0,0,0,1,1,QS,\n');
  const riScope = oedFile('ri_scope.csv', 'ReinsNumber,PortNumber,AccNumber,PolNumber,LocNumber,CededPercent\n1,P1,,,,\n');
  const lone = await catrisk(['ingest', locFile, '--ri-info', riInfo, '--wait', ...c]);
  assert.equal(lone.code, 1, 'ri_info without ri_scope is refused by the service');
  assert.match(lone.stderr, /^error 422 invalid_request: .*ri_info and ri_scope are sent together/m);
  const oedIngest = await catrisk(['ingest', locFile, '--account', accFile, '--ri-info', riInfo, '--ri-scope', riScope, '--wait', ...c]);
  ok(oedIngest, 'ingest an OED set');
  const oedJob = JSON.parse(oedIngest.stdout);
  assert.equal(oedJob.status, 'succeeded', JSON.stringify(oedJob.error));
  assert.deepEqual(oedJob.subject.oed_parts, { account: 'account.csv', ri_info: 'ri_info.csv', ri_scope: 'ri_scope.csv' });
  const oedObject = (await call(svc.api, 'GET', oedJob.result.objects[0].links.self, { key })).body;
  assert.deepEqual([oedObject.oed.accounts.length, oedObject.oed.ri_info.length, oedObject.oed.ri_scope.length], [1, 1, 1]);
  const oedSpec = join(scratch, 'spec-oed.json');
  writeFileSync(oedSpec, JSON.stringify({ model: 'oasislmf-windstorm', samples: 0, exposure: { object_id: oedObject.id } }));
  const oedRun = await catrisk(['lab', 'run', oedSpec, '--wait', '--format', 'id', ...c]);
  ok(oedRun, 'lab run over the OED object');
  const oedOut = join(scratch, 'oed-tables');
  const oedExported = await catrisk(['export', oedRun.stdout.trim(), '--all', oedOut, '--format', 'id', ...c]);
  ok(oedExported, 'export --all of the OED object\'s run');
  assert.deepEqual(oedExported.stdout.trim().split('\n').map((f) => f.slice(oedOut.length + 1)).sort(), names);
  // A lane with tables of its own: export --all writes those (deterministic-loss: loc_summary).
  const detSpec = join(scratch, 'spec-deterministic.json');
  writeFileSync(detSpec, JSON.stringify({ model: 'deterministic-loss', object_id: oedObject.id, loss_factors: [0.5] }));
  const detRun = await catrisk(['lab', 'run', detSpec, '--wait', '--format', 'id', ...c]);
  ok(detRun, 'deterministic run');
  const detOut = join(scratch, 'deterministic-tables');
  const detExported = await catrisk(['export', detRun.stdout.trim(), '--all', detOut, '--format', 'id', ...c]);
  ok(detExported, 'export --all of a lane with its own tables');
  assert.deepEqual(detExported.stdout.trim().split('\n'), [join(detOut, 'loc_summary.csv')]);
  const locSummary = await fetch(`${svc.urls.lab}/runs/${detRun.stdout.trim()}?format=csv&table=loc_summary`, { headers: { authorization: `Bearer ${key}`, 'user-agent': 'catrisk-tests/1.0' } });
  const locSummaryCsv = readFileSync(join(detOut, 'loc_summary.csv'), 'utf8');
  assert.equal(locSummaryCsv, await locSummary.text());
  // 0.5 × 1,000,000 ground up, less the 1,000 deductible, 70% kept net of the quota share.
  assert.deepEqual(parse(locSummaryCsv, { columns: true }), [{ PortNumber: 'P1', AccNumber: 'A1', LocNumber: 'L1', loss_gul: '500000', loss_il: '499000', loss_ri: '349300' }]);

  // Any path, as the API answers it.
  const listed = await catrisk(['get', '/objects', '--format', 'table', ...c]);
  ok(listed, 'get');
  assert.match(listed.stdout, new RegExp(objectId));

  // A refusal: the envelope's words on stderr, exit 1, nothing on stdout.
  const missing = await catrisk(['get', '/objects/obj_000000000000000000000000', ...c]);
  assert.equal(missing.code, 1, missing.stderr);
  assert.match(missing.stderr, /^error 404 not_found: .+/);
  assert.equal(missing.stdout, '');
  const failedJob = await catrisk(['backtest', structure.id, '--from-year', '1850', '--to-year', '2000', '--wait', ...c]);
  assert.equal(failedJob.code, 1);
  assert.match(failedJob.stderr, /^error 422 unbacktestable_structure: .+/m);

  // Usage errors: exit 2, before anything is sent.
  for (const args of [['backtest'], ['backtest', structure.id, '--format', 'xml'], ['ingest', 'schedule.csv', '--format', 'csv'],
    ['price', objectId, '--frobnicate'], ['price', objectId, '--timeout', '5'], ['price', objectId, '--wait', '--timeout', '0'],
    ['price', objectId, '--wait', '--timeout', 'soon'], ['ingest', join(scratch, 'no-such-schedule.csv')], ['backtest', structure.id, '--from-year', 'last'], ['frobnicate']]) {
    const usage = await catrisk([...args, ...c]);
    assert.equal(usage.code, 2, `${args.join(' ')}: ${usage.stderr}`);
    assert.ok(usage.stderr.length > 0);
  }
  const help = await catrisk(['backtest', '--help']);
  ok(help, 'help');
  assert.match(help.stdout, /^usage: catrisk backtest STRUCTURE_ID/);

  // A service that cannot be reached: exit 3.
  const port = await closedPort();
  const unreachable = await catrisk(['get', '/health', '--url', `http://127.0.0.1:${port}`, ...c]);
  assert.equal(unreachable.code, 3, unreachable.stderr);
  assert.match(unreachable.stderr, /cannot reach/);

  // A key that is not held is not kept; a held one is (XDG_CONFIG_HOME locates the file); logout forgets it.
  const xdg = join(scratch, 'xdg');
  const wrong = await catrisk(['login', '--key', 'not-a-key', '--url', svc.api], { XDG_CONFIG_HOME: xdg });
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /error 401 unauthenticated/);
  assert.equal(existsSync(join(xdg, 'catrisk', 'config.json')), false);
  ok(await catrisk(['login', '--key', key, '--url', svc.api], { XDG_CONFIG_HOME: xdg }), 'login --key');
  assert.equal(JSON.parse(readFileSync(join(xdg, 'catrisk', 'config.json'), 'utf8')).key, key);
  ok(await catrisk(['logout'], { XDG_CONFIG_HOME: xdg }), 'logout');
  assert.equal(existsSync(join(xdg, 'catrisk', 'config.json')), false);
});

test('--version names the package version; --wait --timeout stops waiting with exit 4, the job left running', async () => {
  const version = await catrisk(['--version']);
  ok(version, '--version');
  assert.equal(version.stdout, `catrisk ${JSON.parse(readFileSync('package.json', 'utf8')).version}\n`);

  // A stand-in for the API whose job never ends: the client's waiting is what is under test here.
  const reads: number[] = [];
  const server = createHttpServer((request, response) => {
    reads.push(Date.now());
    response.writeHead(200, { 'content-type': 'application/json', 'retry-after': '1' });
    response.end(JSON.stringify({ id: 'job_0123456789abcdef', verb: 'price', status: 'running', links: { self: '/jobs/job_0123456789abcdef' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const started = Date.now();
    const run = await catrisk(['job', 'job_0123456789abcdef', '--wait', '--timeout', '0.3', '--url', url], { CATRISK_KEY: 'k', XDG_CONFIG_HOME: join(scratch, 'none') });
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /job job_0123456789abcdef is still running after 0\.3 s; it goes on: catrisk job job_0123456789abcdef --wait/);
    assert.equal(run.stdout, '');
    // It did not sleep the whole Retry-After past its deadline (the process start is most of this).
    assert.ok(reads.length >= 2 && reads[reads.length - 1]! - reads[0]! < 900, `reads ${reads.length}, ${Date.now() - started} ms`);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('hosts and key: the flag, then the environment, then the login, then the default', () => {
  const login = { url: 'http://stored:1', lab_url: 'http://stored:2', key: 'stored-key' };
  assert.deepEqual(endpointOf({ url: 'http://flag:1/' }, login, { CATRISK_URL: 'http://env:1', CATRISK_LAB_URL: 'http://env:2' }),
    { api: 'http://flag:1', lab: 'http://env:2', key: 'stored-key' });
  assert.deepEqual(endpointOf({}, login, { CATRISK_KEY: 'env-key' }), { api: 'http://stored:1', lab: 'http://stored:2', key: 'env-key' });
  assert.deepEqual(endpointOf({}, {}, {}), { api: 'http://127.0.0.1:8080', lab: 'http://127.0.0.1:8084', key: undefined });
});

test('progress: a bar redrawn in place on a terminal, a line per change elsewhere', () => {
  const written: string[] = [];
  const terminal = new ProgressView({ isTTY: true, columns: 100, write: (t: string) => written.push(t) });
  terminal.show({ id: 'j1', status: 'running', progress: { fraction: 0.5, sentence: '500 of 1,000 rows read' } });
  terminal.show({ id: 'j1', status: 'succeeded', progress: { fraction: 1, sentence: '1,000 of 1,000 rows read' } });
  terminal.done();
  assert.deepEqual(written, ['job j1\n', `\r${bar(0.5, 24)} running 50%: 500 of 1,000 rows read\x1b[K`,
    `\r${bar(1, 24)} succeeded 100%: 1,000 of 1,000 rows read\x1b[K`, '\n']);
  assert.equal(bar(0.5, 4), '[##..]');

  const lines: string[] = [];
  const log = new ProgressView({ write: (t: string) => lines.push(t) });
  log.show({ id: 'j1', status: 'queued' });
  log.show({ id: 'j1', status: 'queued' });
  log.show({ id: 'j1', status: 'running', progress: { fraction: 0.25, sentence: 'a quarter' } });
  log.done();
  assert.deepEqual(lines, ['job j1 queued\n', 'job j1 running 25%: a quarter\n']);
});

test('a CLIMADA user brings three files from the command line and runs climada-impact over them', async () => {
  const svc = await sharedService('sqlite');
  const config = join(scratch, 'config-climada');
  const c = ['--config', config];
  ok(await catrisk(['login', '--url', svc.api, '--lab-url', svc.urls.lab, ...c]), 'login');
  // CLIMADA's demo files, as pinned in feeds/climada-demo-tc.
  const demo = (name: string) => `feeds/climada-demo-tc/2025-09-30/${name}`;
  const ids: string[] = [];
  for (const [kind, file] of [['climada-hazard', 'atl_prob_no_name.mat'], ['climada-exposures', 'exp_demo_today.h5'], ['climada-impact-functions', 'demo_today.xlsx']]) {
    const brought = await catrisk(['lab', 'input', kind!, demo(file!), '--format', 'id', ...c]);
    ok(brought, `lab input ${kind}`);
    assert.match(brought.stdout, /^inp_[0-9a-f]{32}\n$/);
    ids.push(brought.stdout.trim());
  }
  const spec = join(scratch, 'climada-spec.json');
  writeFileSync(spec, JSON.stringify({ model: 'climada-impact', hazard: ids[0], exposures: ids[1], impact_functions: ids[2] }));
  const run = await catrisk(['lab', 'run', spec, '--wait', ...c]);
  ok(run, 'lab run climada-impact');
  // CLIMADA's published aai_agg on its demo (test_impact_calc.py test_calc_impact_TC_pass, 5 places).
  assert.ok(Math.abs(JSON.parse(run.stdout).result.aai_agg - 6.512201157564421e9) < 5e-6);
  const curve = await catrisk(['lab', 'run', spec, '--wait', '--format', 'csv', '--table', 'freq_curve', ...c]);
  ok(curve, 'lab run csv');
  assert.deepEqual(Object.keys((parse(curve.stdout, { columns: true }) as object[])[0]!), ['return_period', 'impact']);
  const unread = await catrisk(['lab', 'input', 'climada-hazard', demo('demo_today.xlsx'), ...c]);
  assert.notEqual(unread.code, 0);
  assert.match(unread.stderr, /not an HDF5 file/);
});

test('an OpenQuake user brings exposure, vulnerability and ground-motion fields from the command line and runs openquake-scenario-risk', async () => {
  const svc = await sharedService('sqlite');
  const config = join(scratch, 'config-openquake');
  const c = ['--config', config];
  ok(await catrisk(['login', '--url', svc.api, '--lab-url', svc.urls.lab, ...c]), 'login');
  // OpenQuake's scenario_risk case_1 files (test/support/openquake-case1.ts), written out as a user has them.
  const files: Record<string, string> = { 'exposure_model.xml': CASE1_EXPOSURE, 'vulnerability.xml': CASE1_VULNERABILITY, 'gmf_data.csv': CASE1_GMFS, 'sites.csv': CASE1_SITES };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(scratch, name), text);
  const bring = async (args: string[]) => {
    const brought = await catrisk(['lab', 'input', ...args, '--format', 'id', ...c]);
    ok(brought, `lab input ${args[0]}`);
    return brought.stdout.trim();
  };
  const exposure = await bring(['oq-exposure', join(scratch, 'exposure_model.xml')]);
  const vulnerability = await bring(['oq-vulnerability', join(scratch, 'vulnerability.xml')]);
  const gmfs = await bring(['oq-gmfs', join(scratch, 'gmf_data.csv'), '--part', `sites=${join(scratch, 'sites.csv')}`]);
  const spec = join(scratch, 'openquake-spec.json');
  writeFileSync(spec, JSON.stringify({ model: 'openquake-scenario-risk', exposure, vulnerability, gmfs, minimum_asset_loss: { structural: 200 } }));
  const agg = await catrisk(['lab', 'run', spec, '--wait', '--format', 'csv', '--table', 'aggrisk', ...c]);
  ok(agg, 'lab run openquake-scenario-risk');
  // OpenQuake's expected/agg.csv for case_1: structural,4.12367E+02,2.06184E-01.
  const [row] = parse(agg.stdout, { columns: true }) as Array<Record<string, string>>;
  assert.equal(row!.loss_type, 'structural');
  assert.ok(Math.abs(Number(row!.loss_value) - 412.367) <= 412.367 * 1e-5, row!.loss_value);
  assert.ok(Math.abs(Number(row!.loss_ratio) - 0.206184) <= 0.206184 * 1e-5, row!.loss_ratio);
});

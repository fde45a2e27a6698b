// Each host's contract passes Redocly's linter in its recommended ruleset with no error and no
// warning (it found 1 error and 111 warnings in the one document served before: no operationId on
// 83 operations, 26 required members no schema defined, 2 unused components, an undefined security
// scheme). The linter is @redocly/cli as installed (a devDependency), run offline: no telemetry,
// no update check.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { call, startService, type TestService } from '../support/service.js';

const HOSTS = ['api', 'data', 'docs', 'lab'] as const;
const CLI = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

let svc: TestService;
let dir: string;
before(async () => {
  svc = await startService('sqlite');
  dir = mkdtempSync(join(tmpdir(), 'catrisk-lint-'));
});
after(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

test('redocly lint (recommended) finds nothing in any host\'s contract', async () => {
  const files: string[] = [];
  for (const host of HOSTS) {
    const answer = await call(svc.urls.docs, 'GET', `/schema/${host}-contract.v0.json`);
    assert.equal(answer.status, 200, host);
    const file = join(dir, `${host}-contract.v0.json`);
    writeFileSync(file, answer.text);
    files.push(file);
  }
  const run = spawnSync(process.execPath, [CLI, 'lint', ...files, '--extends', 'recommended', '--format', 'json', '--max-problems', '1000'], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeout: 120_000,
  });
  // One JSON report per document, one after the other.
  const reports = run.stdout.replace(/\}\s*\{/g, '}\u0000{').split('\u0000').filter((t) => t.trim() !== '').map((t) => JSON.parse(t) as {
    totals: { errors: number; warnings: number; ignored: number };
    problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string; source: { ref: string } }> }>;
  });
  assert.equal(reports.length, HOSTS.length, run.stderr);
  const problems = reports.flatMap((r) => r.problems.map((p) => `${p.location[0]?.source.ref.split('/').pop()} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`));
  assert.deepEqual(problems, []);
  for (const report of reports) assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
  assert.equal(run.status, 0, run.stderr);
});

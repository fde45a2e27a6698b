// The docs host in a browser: headless Chromium (playwright-core) opens the home, the API reference
// and three pages, and each renders with no console error, no uncaught script error and no failed
// request; the reference draws the contract's operations. Screenshots are kept under
// artifacts/screenshots/ to be looked at. Chromium is installed by .ci/run; on a machine without
// it (CHROMIUM_PATH, else /usr/bin/chromium) the test is skipped and says why.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startService, type TestService } from '../support/service.js';
import { artifactsDir } from '../support/artifacts.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH): the docs host's screenshots are not taken`;

let svc: TestService;
let browser: Browser;
before(async () => {
  if (skip) return;
  svc = await startService('sqlite');
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});
after(async () => {
  await browser?.close();
  await svc?.close();
});

/** Opens a path of the docs host; answers what went wrong in the browser, and keeps a screenshot. */
async function visit(path: string, name: string, ready: string): Promise<{ problems: string[]; text: string }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`script: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`answered ${r.status()}: ${r.url()}`); });
  const answer = await page.goto(svc.urls.docs + path, { waitUntil: 'networkidle' });
  assert.equal(answer?.status(), 200, path);
  await page.waitForSelector(ready, { timeout: 30_000 });
  await page.screenshot({ path: join(artifactsDir('screenshots'), `${name}.png`), fullPage: true });
  const text = await page.innerText('body');
  await page.close();
  return { problems, text };
}

test('the docs home renders in Chromium with no console error, and links the reference', { skip }, async () => {
  const { problems, text } = await visit('/', 'docs-home', 'h1');
  assert.deepEqual(problems, []);
  assert.match(text, /catrisk documentation/);
  assert.match(text, /API reference/);
});

test('the API reference renders the contract\'s operations in Chromium with no console error', { skip }, async () => {
  const { problems, text } = await visit('/reference', 'docs-reference', '.swagger-ui .opblock');
  assert.deepEqual(problems, []);
  // The API host's contract: some of its operations drawn, by path.
  for (const path of ['/health', '/objects/{id}/package']) assert.ok(text.includes(path), `${path} drawn`);
});

test('three pages render in Chromium with no console error: their headings and tables drawn', { skip }, async () => {
  for (const [path, heading] of [['/overview', 'h1'], ['/charts', 'table'], ['/lab-models', 'table']] as const) {
    const { problems, text } = await visit(path, `docs-page-${path.slice(1)}`, heading);
    assert.deepEqual(problems, [], path);
    assert.ok(text.length > 200, `${path} has its text`);
  }
});

// Submission packs over HTTP: an earthquake object priced and backtested over the pinned record,
// packaged; the pack's figures equal the price run's and the backtest's; the same object version
// and price give the same pack and the same PDF bytes; each PDF's text (pdftotext) carries the
// watermark on every page and the premium; one page is rendered (pdftoppm); refusals on the
// request; tenancy; package listed as being retired.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { USER_AGENT, call, eachDialect, sharedService, signup, waitForJob, type TestService } from '../support/service.js';
import { ACCEPTANCE_BODIES } from '../support/acceptance.js';
import { ingestedObject, priceObject } from '../support/objects.js';
import { diagonalTint, pageTexts } from '../support/pdf.js';
import { keepArtifact, keepPdfPages } from '../support/artifacts.js';

const WATERMARK = 'DRAFT — not an offer';
const DOCUMENTS = ['exposure_summary', 'pricing_exhibit', 'draft_slip', 'backtest_exhibit'];

// Hand-made slip blocks: names with accents and a euro sign, which the embedded font must print.
const PARTIES = {
  insured: { name: 'Société Coopérative des Vignerons de Sète', registration: 'RCS Montpellier 123 456 789' },
  broker: { name: 'Courtage Éole & Associés', capital: '€ 50 000' },
};
const JURISDICTION = { country: 'FR', subdivision: 'Occitanie', governing_law: 'droit français' };

async function getBytes(svc: TestService, key: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(svc.api + path, { headers: { 'user-agent': USER_AGENT, authorization: `Bearer ${key}`, ...headers } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** "USD 1,234,567.89", as the slip and the exhibit write money. */
function money(amount: number, currency: string): string {
  const [whole, fraction] = amount.toFixed(2).split('.');
  return `${currency} ${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** Each page's text, the PDF kept in `dir` as `name`.pdf. */
function pagesOf(dir: string, name: string, pdf: Buffer): string[] {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return pageTexts(file);
}

/** The watermark on every page: in its text (the footer line) and drawn across its diagonal. */
function watermarkedEveryPage(name: string, pdf: Buffer, pages: string[]): void {
  pages.forEach((text, i) => assert.ok(text.includes(WATERMARK), `${name} page ${i + 1} carries the watermark line`));
  const tint = diagonalTint(pdf);
  assert.equal(tint.length, pages.length);
  tint.forEach((quarters, i) => assert.ok(quarters.every((n) => n > 50), `${name} page ${i + 1}: the diagonal watermark (${quarters.join(', ')})`));
}

eachDialect('a priced, backtested object packages into a watermarked pack whose figures are the price run\'s and the backtest\'s', async (dialect) => {
  const svc = await sharedService(dialect);
  const { key } = await signup(svc.api);
  const other = await signup(svc.api);
  const objectPath = await ingestedObject(svc, key);
  const objectId = objectPath.split('/').pop()!;

  // Not priced yet, no parties or jurisdiction: every missing piece named, one line each.
  const bare = await call(svc.api, 'POST', `${objectPath}/package`, { key });
  assert.equal(bare.status, 422, bare.text);
  assert.equal(bare.body.error.code, 'unpackageable_object');
  for (const piece of ['price run', 'parties', 'period', 'jurisdiction', 'financial_structure', 'trigger', 'technical_premium']) {
    assert.ok(bare.body.error.message.includes(piece), `${piece} named in: ${bare.body.error.message}`);
  }
  assert.deepEqual(bare.body.error.details.map((d: string) => d.slice(0, d.indexOf(':'))),
    ['price run', 'parties', 'period', 'jurisdiction', 'financial_structure', 'trigger', 'technical_premium']);

  await call(svc.api, 'PATCH', objectPath, { key, body: { ...(ACCEPTANCE_BODIES.earthquake as object), parties: PARTIES, jurisdiction: JURISDICTION } });
  const priceJob = await priceObject(svc, key, objectPath);
  assert.equal(priceJob.status, 'succeeded', JSON.stringify(priceJob.error));
  const price = priceJob.result;

  // Packaged before any backtest is recorded: no backtest exhibit, and the pack says why.
  const early = await call(svc.api, 'POST', `${objectPath}/package`, { key, body: { documents: ['draft_slip', 'backtest_exhibit'] } });
  assert.equal(early.status, 202, early.text);
  const earlyJob = await waitForJob(svc.api, key, early.headers.get('location')!, 30_000);
  assert.equal(earlyJob.status, 'succeeded', JSON.stringify(earlyJob.error));
  assert.deepEqual(earlyJob.result.documents, ['draft_slip']);
  assert.equal(earlyJob.result.omitted[0].document, 'backtest_exhibit');
  assert.equal((await getBytes(svc, key, `${earlyJob.result.links.self}/documents/backtest_exhibit.pdf`)).status, 404);

  // The backtest of the priced terms over the whole record: the artifact the price names.
  const cut = await call(svc.api, 'POST', `${objectPath}/structures`, { key });
  const bt = await call(svc.api, 'POST', `${cut.body.links.self}/backtest`, { key });
  const artifact = (await waitForJob(svc.api, key, bt.headers.get('location')!, 60_000)).result;
  assert.equal(artifact.id, price.backtest.id);

  const accepted = await call(svc.api, 'POST', `${objectPath}/package`, { key, headers: { 'idempotency-key': 'pack-once' } });
  assert.equal(accepted.status, 202, accepted.text);
  // Sent again with its key: the first answer, and no second job.
  const replayed = await call(svc.api, 'POST', `${objectPath}/package`, { key, headers: { 'idempotency-key': 'pack-once' } });
  assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
  assert.equal(replayed.headers.get('location'), accepted.headers.get('location'));
  const job = await waitForJob(svc.api, key, accepted.headers.get('location')!, 30_000);
  assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
  assert.equal(job.verb, 'package');
  assert.deepEqual(job.result.documents, DOCUMENTS);
  const read = await call(svc.api, 'GET', job.result.links.self, { key });
  assert.equal(read.status, 200);
  const pack = read.body;
  assert.equal(pack.watermark, WATERMARK);
  assert.match(pack.statement, /Analysis only/);
  assert.equal(pack.object.id, objectId);
  assert.equal(pack.price_run.run_id, price.id);
  assert.equal(pack.backtest_id, artifact.id);
  for (const name of DOCUMENTS) assert.equal(pack.documents[name].watermark, WATERMARK, name);

  // The pricing exhibit is the price run's assumption set, figure for figure.
  const exhibit = pack.documents.pricing_exhibit;
  assert.deepEqual(exhibit.technical_premium, price.technical_premium);
  assert.deepEqual(exhibit.loads, price.loads);
  assert.deepEqual(exhibit.fitted_view, price.fitted_view);
  assert.deepEqual(exhibit.credibility, price.blend);
  assert.deepEqual(exhibit.parameters, price.inputs.parameters);
  assert.deepEqual(exhibit.historical_burn, price.historical_burn);
  assert.deepEqual(exhibit.feeds_read, [price.feed]);
  assert.deepEqual(exhibit.model, price.model);
  assert.deepEqual(exhibit.assumptions, price.assumptions);
  assert.equal(exhibit.multiple_of_expected_loss, price.multiple_of_expected_loss);

  // The backtest exhibit is the artifact's year table and statistics.
  const years = pack.documents.backtest_exhibit;
  assert.deepEqual(years.statistics, artifact.statistics);
  assert.deepEqual(years.years.map((y: any) => [y.year, y.record, y.payout, y.occurrences.length ?? y.occurrences]),
    artifact.years.map((y: any) => [y.year, y.record, y.payout, y.occurrences.length]));
  assert.equal(years.years.length, artifact.window.to_year - artifact.window.from_year + 1);

  // The draft slip: LMA-style headings, the terms in words and in full, a technical price, not a quote.
  const slip = pack.documents.draft_slip;
  assert.deepEqual(slip.sections.map((s: any) => s.heading), ['TYPE', 'INSURED / PARTIES', 'PERIOD', 'JURISDICTION', 'LIMIT', 'ATTACHMENT', 'TRIGGER', 'PAYOUT SCHEDULE', 'DATA SOURCE', 'CALCULATION AGENT', 'TECHNICAL PREMIUM', 'STATUS']);
  assert.deepEqual(slip.trigger_in_full, (ACCEPTANCE_BODIES.earthquake as any).trigger);
  assert.deepEqual(slip.payout_schedule.map((r: any) => r.amount), [2_500_000, 5_000_000, 10_000_000]);
  const premiumLine = slip.sections.find((s: any) => s.heading === 'TECHNICAL PREMIUM').lines.join(' ');
  assert.ok(premiumLine.includes(money(price.technical_premium.amount, 'USD')), premiumLine);
  assert.match(premiumLine, /not a quote/);

  // The exposure summary: the two locations' totals, summed exactly.
  const summary = pack.documents.exposure_summary;
  const object = (await call(svc.api, 'GET', objectPath, { key })).body;
  assert.equal(summary.counts.locations, object.exposure.locations.length);
  const cents = object.exposure.locations.reduce((s: bigint, l: any) => s + BigInt(l.values.total.replace('.', '')), 0n);
  assert.equal(summary.totals[0].total, `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`);

  // The same object version and price run: the same pack, byte for byte.
  const again = await call(svc.api, 'POST', `${objectPath}/package`, { key });
  const againJob = await waitForJob(svc.api, key, again.headers.get('location')!, 30_000);
  assert.equal(againJob.result.id, pack.id);
  assert.equal((await call(svc.api, 'GET', job.result.links.self, { key })).text, read.text);

  // The PDFs: watermark on every page, the premium, the accents and the euro sign; same bytes twice.
  const dir = mkdtempSync(join(tmpdir(), 'catrisk-pack-'));
  try {
    const premium = money(price.technical_premium.amount, 'USD');
    for (const name of DOCUMENTS) {
      const path = pack.links[name];
      assert.equal(path, `/packages/${pack.id}/documents/${name}.pdf`);
      const pdf = await getBytes(svc, key, path);
      assert.equal(pdf.status, 200, name);
      assert.equal(pdf.headers.get('content-type'), 'application/pdf');
      assert.equal(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      const pages = pagesOf(dir, name, pdf.bytes);
      watermarkedEveryPage(name, pdf.bytes, pages);
      if (name === 'pricing_exhibit' || name === 'draft_slip') assert.ok(pages.join('').includes(premium), `${name} states ${premium}`);
      if (name === 'draft_slip') {
        const text = pages.join('');
        for (const words of [PARTIES.insured.name, PARTIES.broker.name, '€ 50 000', 'droit français', 'not a quote']) assert.ok(text.includes(words), `slip prints ${words}`);
      }
      if (name === 'backtest_exhibit') {
        // The chart is vectors: no image in the file; its lines are labelled with the terms.
        assert.equal(pdf.bytes.includes('/Subtype /Image'), false);
        assert.ok(pages.join('').includes('limit 10M'));
        // Every year of the table is printed.
        for (const y of artifact.years) assert.ok(pages.join('').includes(String(y.year)), `year ${y.year}`);
      }
      const twice = await getBytes(svc, key, path);
      assert.ok(twice.bytes.equals(pdf.bytes), `${name}: the same pack gives the same bytes`);
      const etag = pdf.headers.get('etag')!;
      assert.equal((await getBytes(svc, key, path, { 'if-none-match': etag })).status, 304);
    }
    const whole = await getBytes(svc, key, pack.links.pdf);
    assert.equal(whole.status, 200);
    const pages = pagesOf(dir, 'pack', whole.bytes);
    assert.ok(pages.length >= 5, `a cover and four documents: ${pages.length} pages`);
    watermarkedEveryPage('pack', whole.bytes, pages);
    // A broker reads tables and sentences: no JSON, no dotted member names, money grouped in
    // thousands after its currency, rates as percentages (three significant digits, recomputed here).
    const text = pages.join('\n');
    assert.deepEqual(text.match(/[{}[\]]/g), null, 'no JSON in the pack');
    assert.deepEqual(text.match(/^\s*[a-z]+(?: [a-z]+)*\.[a-z]+/gm), null, 'no dotted member names as labels');
    assert.deepEqual((text.match(/USD [\d,.]+/g) ?? []).filter((m) => !/^USD \d{1,3}(,\d{3})*\.\d\d$/.test(m.replace(/[.,]$/, ''))), [], 'money as USD 1,234.56');
    const rol = price.technical_premium.rate_on_line;
    assert.ok(text.includes(`A rate on line of ${Number((rol * 100).toPrecision(3))}%`), 'the rate on line as a percentage');
    assert.ok(!text.includes(String(rol)), `the raw rate ${rol} is not printed`);
    assert.ok(text.includes(`Z = ${Number((price.blend.z * 100).toPrecision(3))}% on the burn`), 'the credibility weight as a percentage');
    for (const p of price.historical_burn.partial_years) assert.ok(text.includes(`${p.year}: the record covers ${p.days_covered} of the term's ${p.term_days} days`), `partial year ${p.year} in a sentence`);
    // Each page kept as a picture, to be looked at as a broker would (artifacts/documents/).
    if (dialect === 'sqlite') {
      keepArtifact('documents', 'pack.json', read.text);
      assert.equal((await keepPdfPages('pack', whole.bytes)).length, pages.length);
    }
    // The file renders: the draft slip's first page rasterised.
    const slipPage = pages.findIndex((t) => t.includes('INSURED / PARTIES')) + 1;
    await promisify(execFile)('pdftoppm', ['-png', '-r', '50', '-f', String(slipPage), '-l', String(slipPage), '-singlefile', join(dir, 'pack.pdf'), join(dir, 'slip')]);
    const png = readFileSync(join(dir, 'slip.png'));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(png.length > 5000, `a drawn page, ${png.length} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Tenancy: another key sees none of it.
  assert.equal((await call(svc.api, 'GET', job.result.links.self, { key: other.key })).status, 404);
  assert.equal((await getBytes(svc, other.key, pack.links.pdf)).status, 404);
  assert.equal((await getBytes(svc, other.key, pack.links.draft_slip)).status, 404);
  const theirs = await call(svc.api, 'POST', `${objectPath}/package`, { key: other.key });
  assert.equal(theirs.status, 404);
  assert.equal(theirs.body.error.code, 'not_found');

  // A request body naming an unknown document is refused on the request.
  const unknown = await call(svc.api, 'POST', `${objectPath}/package`, { key, body: { documents: ['cover_note'] } });
  assert.equal(unknown.status, 422);
  assert.equal(unknown.body.error.code, 'invalid_request');

  // A priced input moved: the premium is gone, and the request says so.
  await call(svc.api, 'PATCH', objectPath, { key, body: { period: { start: '2028-01-01', end: '2028-12-31' } } });
  const moved = await call(svc.api, 'POST', `${objectPath}/package`, { key });
  assert.equal(moved.status, 422);
  assert.deepEqual(moved.body.error.details.map((d: string) => d.slice(0, d.indexOf(':'))), ['technical_premium']);
  // The stored pack is still served as assembled.
  assert.equal((await call(svc.api, 'GET', job.result.links.self, { key })).text, read.text);
});

eachDialect('package is listed as being retired and is reachable', async (dialect) => {
  const svc = await sharedService(dialect);
  const health = await call(svc.api, 'GET', '/health');
  assert.ok(health.body.being_retired.verbs.includes('package'));
  assert.ok(JSON.stringify(health.body.verbs).includes('package'));
});

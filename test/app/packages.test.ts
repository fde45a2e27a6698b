// Submission packs through the use cases, without HTTP or feeds: each block the slip needs refused
// one by one on the request, tenancy, the job failing when its price run's record is gone, and the
// same object version and price run giving the same pack and the same PDF bytes. The price run,
// the backtest and the object are hand-made here (small documents of the shapes the price and
// backtest jobs write); the HTTP test packages a real price and backtest over the pinned feeds.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import PDFDocument from 'pdfkit';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPack, packageJob, packagePdf, readPackage, requestPackage } from '../../src/app/packages.js';
import { signup } from '../../src/app/accounts.js';
import { unwrap, type Result } from '../../src/kernel/result.js';
import { eachDialect } from '../support/service.js';
import { withDeps, type TestDeps } from './support.js';
import { diagonalTint, pageTexts } from '../support/pdf.js';

const PRICE_ID = 'pr_00000000000000000000000000000001';
const BACKTEST_ID = 'bt_00000000000000000000000000000001';

const TRIGGER = {
  type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'usgs-comcat-m6-california', version: '2022-12-20' }],
  measurement: { variable: 'magnitude' }, aggregation_window: { duration: 'P7D' },
  payout: { function: 'ladder', levels: [{ at_least: 6.5, fraction: 0.25 }, { at_least: 7.5, fraction: 1 }] },
};

function handMadeObject(id: string, jobId: string): Record<string, unknown> & { id: string; status: string } {
  return {
    id, schema_version: '0.1.0', status: 'priced',
    exposure: {
      locations: [
        { ref: 'L1', address: { city: 'Nîmes', country: 'FR' }, latitude: 43.84, longitude: 4.36, occupancy: { code: 1050, text: 'Résidence' }, construction: { code: 5000, text: null }, year_built: 1975, values: { buildings: '250000.50', total: '250000.50' }, currency: 'EUR' },
        { ref: 'L2', address: { city: 'Arles', country: 'FR' }, latitude: 43.68, longitude: 4.63, occupancy: { code: null, text: 'Château' }, construction: { code: null, text: null }, year_built: null, values: { buildings: '1000000.25', contents: '99999.75', total: '1100000.00' }, currency: 'EUR' },
      ],
      values: { buildings: '1250000.75', contents: '99999.75', total: '1350000.50' }, currency: 'EUR',
      source_fidelity: { unmapped_columns: [{ column: 'Remarque', sample: ['à revoir'] }], guessed_units: [], ambiguous_rows: [] },
    },
    peril: { code: 'earthquake', region: { type: 'box', min_latitude: 32, max_latitude: 36, min_longitude: -121, max_longitude: -114 } },
    trigger: TRIGGER,
    financial_structure: { currency: 'USD', limit: 10_000_000, attachment: 0 },
    period: { start: '2027-01-01', end: '2027-12-31' },
    parties: { insured: { name: 'Mutuelle de l\'Hérault' }, broker: { name: 'Courtier € Associés' } },
    jurisdiction: { country: 'FR', governing_law: 'droit français' },
    technical_premium: { amount: 123456.78, currency: 'USD', rate_on_line: 0.012345678, price_id: PRICE_ID },
    provenance: { source_files: [], runs: [{ kind: 'price', run_id: PRICE_ID, job_id: jobId, recorded_at: '2026-03-01T12:00:00.000Z' }] },
  };
}

function handMadePrice(objectId: string) {
  return {
    kind: 'technical_price', id: PRICE_ID, object_id: objectId, statement: 'Technical price, not a quote.',
    model: { name: 'catrisk-parametric-technical-price', version: '1.1.0' },
    feed: { feed_id: 'usgs-comcat-m6-california', version: '2022-12-20', sha256: 'a'.repeat(64) },
    currency: 'USD',
    inputs: {
      // A long list, so the terms priced flow over pages pdfkit adds by itself.
      structure: { trigger: TRIGGER, notes: Array.from({ length: 400 }, (_, i) => `hand-made note ${i} about the terms priced, to make the text run long`) },
      window: { from_year: 1901, to_year: 2020 }, feed: { feed_id: 'usgs-comcat-m6-california', version: '2022-12-20', sha256: 'a'.repeat(64) },
      backtest_engine: { name: 'catrisk-backtest', version: '1.1.0' },
      parameters: { credibility_k: 25, risk_load_lambda: 0.25, expense_share: 0.15, minimum_rate_on_line: 0.01, simulation_years: 100000, simulation_seed: 1, bootstrap_replicates: 400, bootstrap_seed: 2 },
    },
    historical_burn: { mean: 100000, standard_deviation: 50000, standard_error: 4564.35, years_used: 120, years_excluded: [], partial_years: [], years_paying: 12, basis: 'hand-made' },
    fitted_view: { available: true, method: 'gutenberg_richter_poisson', expected_annual_payout: 90000, standard_deviation_annual_payout: 40000 },
    blend: { rule: 'Z = n/(n+k)', n: 120, k: 25, z: 0.827586, burn_expected_loss: 100000, fitted_expected_loss: 90000, expected_loss: 98275.86, sigma_rule: 'same weights', burn_standard_deviation: 50000, fitted_standard_deviation: 40000, sigma: 48275.86 },
    loads: [
      { name: 'risk_load', parameter_name: 'risk_load_lambda', parameter: 0.25, amount: 12068.97, basis: 'λ·σ' },
      { name: 'expense_load', parameter_name: 'expense_share', parameter: 0.15, amount: 13111.95, basis: 'G − EL − R' },
    ],
    technical_premium: { amount: 123456.78, currency: 'USD', rate_on_line: 0.012345678, formula: 'P = max(G, m × limit)', rounding: 'cents' },
    multiple_of_expected_loss: 1.256,
    record_needed: { minimum_counted_years: 10, counted_years: 120, rule: 'at least 10 counted years' },
    data_quality: { rule: 'flags', publisher_flags: [], excluded_observations: [] },
    assumptions: ['Occurrences are declustered.', 'The record is complete above the floor.'],
    backtest: { id: BACKTEST_ID, links: { self: `/backtests/${BACKTEST_ID}` } },
  };
}

function handMadeBacktest() {
  const years = Array.from({ length: 120 }, (_, i) => {
    const year = 1901 + i;
    const payout = year % 10 === 0 ? 2_500_000 : 0;
    return { year, term: { from: `${year}-01-01`, to: `${year}-12-31` }, record: 'complete', payout, gross_payout: payout, rate_on_line: payout / 10_000_000, occurrences: year % 10 === 0 ? [{ id: `ev${year}` }] : [] };
  });
  return {
    kind: 'backtest', id: BACKTEST_ID, statement: 'History, not a forecast.',
    feed: { feed_id: 'usgs-comcat-m6-california', version: '2022-12-20', sha256: 'a'.repeat(64) },
    engine: { name: 'catrisk-backtest', version: '1.1.0' },
    window: { from_year: 1901, to_year: 2020, defaulted: true, defaulted_members: ['from_year', 'to_year'] },
    structure: { peril: { code: 'earthquake' }, trigger: TRIGGER, financial_structure: { currency: 'USD', limit: 10_000_000, attachment: 0, annual_cap: 10_000_000 } },
    currency: 'USD', years,
    statistics: { years: 120, years_paying: 12, mean_annual_payout: 250000 },
    burning_cost: { by_year: [], average_rate_on_line: 0.025, basis: 'hand-made' },
    data_coverage: { missing_years: [] }, selection: {}, conventions: {},
  };
}

/** A succeeded price job holding the hand-made price document, as the price job records it. */
async function priceJobFor(deps: TestDeps, accountId: string, objectId: string): Promise<string> {
  const row = await deps.jobs.create({ accountId, verb: 'price', subject: { object_id: objectId }, input: {} });
  const claimed = await deps.jobs.claim('test-owner', 60_000, ['price']);
  assert.equal(claimed?.id, row.id);
  assert.ok(await deps.jobs.finish(row.id, 'test-owner', { result: handMadePrice(objectId) }));
  return row.id;
}

function refusalOf(result: Result<unknown>) {
  assert.equal(result.ok, false);
  return (result as { ok: false; refusal: { status: number; code: string; message: string; details?: string[] } }).refusal;
}

eachDialect('each piece the slip needs is refused on the request by name, one line each', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    const other = (unwrap(await signup(deps, {})) as { id: string }).id;
    const complete = handMadeObject('obj_000000000000000000000001', 'job');
    await deps.objects.insert(accountId, complete);
    assert.ok(unwrap(await requestPackage(deps, { accountId, objectId: complete.id, body: null })).id);

    const pieces: Array<[string, (o: Record<string, unknown>) => void]> = [
      ['price run', (o) => { o.provenance = { source_files: [], runs: [] }; }],
      ...['parties', 'period', 'jurisdiction', 'financial_structure', 'trigger', 'technical_premium'].map((block): [string, (o: Record<string, unknown>) => void] => [block, (o) => { delete o[block]; }]),
    ];
    for (const [i, [piece, remove]] of pieces.entries()) {
      const object = handMadeObject(`obj_00000000000000000000010${i}`, 'job');
      remove(object);
      await deps.objects.insert(accountId, object);
      const r = refusalOf(await requestPackage(deps, { accountId, objectId: object.id, body: null }));
      assert.deepEqual([r.status, r.code], [422, 'unpackageable_object'], piece);
      assert.equal(r.details!.length, 1, `${piece}: ${r.details!.join(' | ')}`);
      assert.ok(r.details![0]!.startsWith(`${piece}:`), r.details![0]);
      assert.ok(r.message.includes(`missing ${piece}.`), r.message);
    }
    // An empty block is as missing as an absent one.
    const empty = { ...handMadeObject('obj_000000000000000000000201', 'job'), parties: {} };
    await deps.objects.insert(accountId, empty);
    assert.deepEqual(refusalOf(await requestPackage(deps, { accountId, objectId: empty.id, body: null })).details!.map((d) => d.split(':')[0]), ['parties']);

    // Tenancy: another account's object, pack and PDF are not found.
    assert.deepEqual([refusalOf(await requestPackage(deps, { accountId: other, objectId: complete.id, body: null })).status], [404]);
    assert.equal(refusalOf(await readPackage(deps, { accountId, id: 'pk_nothing' })).code, 'not_found');
  });
});

eachDialect('the same object version and price run give the same pack and the same PDF bytes', async (dialect) => {
  await withDeps(dialect, async (deps) => {
    const accountId = (unwrap(await signup(deps, {})) as { id: string }).id;
    const other = (unwrap(await signup(deps, {})) as { id: string }).id;
    const objectId = 'obj_000000000000000000000301';

    // The price run's job record is gone: the job fails, naming it.
    await deps.objects.insert(accountId, handMadeObject(objectId, '00000000-0000-0000-0000-000000000000'));
    const gone = refusalOf(await packageJob(deps, { accountId, input: { object_id: objectId, documents: [] } }));
    assert.deepEqual([gone.status, gone.code], [422, 'unpackageable_object']);
    assert.match(gone.details![0]!, /^price run: the document of price run pr_/);

    const jobId = await priceJobFor(deps, accountId, objectId);
    const second = 'obj_000000000000000000000302';
    await deps.objects.insert(accountId, handMadeObject(second, jobId));
    await deps.structures.putBacktest(accountId, BACKTEST_ID, JSON.stringify(handMadeBacktest()), { peril: 'earthquake', feed_id: null, feed_version: null, from_year: 1901, to_year: 2020 });
    const a = unwrap(await buildPack(deps, { accountId, objectId: second, documents: [] }));
    const b = unwrap(await buildPack(deps, { accountId, objectId: second, documents: [] }));
    assert.deepEqual(a, b);
    assert.deepEqual(Object.keys(a.documents), ['exposure_summary', 'pricing_exhibit', 'draft_slip', 'backtest_exhibit']);
    assert.equal(a.as_of, '2026-03-01');
    // The exposure summary's totals, summed by hand: 250000.50 + 1100000.00; buildings 250000.50 + 1000000.25.
    assert.deepEqual(a.documents.exposure_summary && (a.documents.exposure_summary as any).totals,
      [{ currency: 'EUR', locations: 2, buildings: '1250000.75', contents: '99999.75', total: '1350000.50' }]);
    assert.deepEqual((a.documents.backtest_exhibit as any).years.filter((y: any) => y.payout > 0).map((y: any) => y.year), [1910, 1920, 1930, 1940, 1950, 1960, 1970, 1980, 1990, 2000, 2010, 2020]);

    const done = unwrap(await packageJob(deps, { accountId, input: { object_id: second, documents: [] } })) as { id: string };
    assert.equal(done.id, a.id);
    const stored = unwrap(await readPackage(deps, { accountId, id: a.id }));
    assert.equal(unwrap(await packageJob(deps, { accountId, input: { object_id: second, documents: [] } })) && unwrap(await readPackage(deps, { accountId, id: a.id })), stored);
    assert.equal(refusalOf(await readPackage(deps, { accountId: other, id: a.id })).status, 404);
    assert.equal(refusalOf(await packagePdf(deps, { accountId: other, id: a.id })).status, 404);

    // A subset is another pack; a document it does not hold is not found.
    const slipOnly = unwrap(await packageJob(deps, { accountId, input: { object_id: second, documents: ['draft_slip'] } })) as { id: string };
    assert.notEqual(slipOnly.id, a.id);
    assert.equal(refusalOf(await packagePdf(deps, { accountId, id: slipOnly.id, document: 'pricing_exhibit' })).code, 'not_found');

    const dir = mkdtempSync(join(tmpdir(), 'catrisk-pack-app-'));
    try {
      const pdf = unwrap(await packagePdf(deps, { accountId, id: a.id, document: 'pricing_exhibit' }));
      assert.ok(pdf.equals(unwrap(await packagePdf(deps, { accountId, id: a.id, document: 'pricing_exhibit' }))), 'same bytes');
      const file = join(dir, 'exhibit.pdf');
      writeFileSync(file, pdf);
      const texts = pageTexts(file);
      assert.ok(texts.length >= 3, `the long terms flowed over ${texts.length} pages`);
      texts.forEach((text, p) => assert.ok(text.includes('DRAFT — not an offer'), `page ${p + 1} of ${texts.length} carries the watermark line`));
      // Drawn across every page too, those pdfkit added as the text flowed included.
      diagonalTint(pdf).forEach((quarters, p) => assert.ok(quarters.every((n) => n > 50), `page ${p + 1}: the diagonal watermark (${quarters.join(', ')})`));
      // The check sees a page without it: a plain page, black text on its diagonal, is not taken for one.
      const plain = new PDFDocument({ size: 'A4' });
      const chunks: Buffer[] = [];
      plain.on('data', (c: Buffer) => chunks.push(c));
      const ended = new Promise((resolve) => plain.on('end', resolve));
      plain.save().rotate(-54.7, { origin: [297.64, 420.94] }).fontSize(54).text('DRAFT — not an offer', 0, 393, { lineBreak: false }).restore();
      plain.end();
      await ended;
      assert.ok(diagonalTint(Buffer.concat(chunks))[0]!.some((n) => n <= 50), 'a page without the pale diagonal is not counted');
      const all = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
      assert.ok(all.includes('USD 123,456.78'), 'the premium');
      assert.ok(all.includes('hand-made note 399'), 'the last of the flowing text');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

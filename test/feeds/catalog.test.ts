// The feed catalog over every pinned feed: each resolves to exactly one family, or is listed here
// as pinned for the lab and not read by a hazard route; what it says agrees with the manifest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { FEEDS_DIR, manifestOf } from '../support/feeds.js';
import { feedClass, feedEntry, floodMapFacts } from '../../src/feeds/catalog.js';

/**
 * Pinned with no catalog family, so no hazard route reads them: for the lab (model data the lanes
 * pin by id and version, among them ESHM20's source-model branches, which the probabilistic European
 * and Turkish lane reads through its own pins).
 */
const NOT_READ_BY_THE_API = new Set([
  'efehr-eshm20-source-model-branches',
  'esrm20-scenario-events',
  'oasis-piwind',
]);

/** State outage event records: their manifests say outage_series; the catalog reads them as events, not series. */
const EVENT_RECORDS = new Set(['doe-oe417-disturbance-events', 'purdue-major-power-outages-us']);

const pinned = readdirSync(FEEDS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

const DATASET_OF_KIND: Record<string, string> = {
  event_catalog: 'quake_catalog', storm_report_set: 'report_set', fire_extract: 'fire_perimeters', daily_series: 'daily_series',
  outage_series: 'outage_series', track_archive: 'track_archive', model_data: 'model_data', reference_table: 'reference_table',
};

test('every pinned feed resolves to one catalog entry or is listed as not read by the API', () => {
  assert.ok(pinned.length > 50, `pinned feeds found under ${FEEDS_DIR}`);
  for (const id of pinned) {
    const m = manifestOf(id);
    const entry = feedEntry(m);
    if (NOT_READ_BY_THE_API.has(id)) {
      assert.equal(entry, undefined, `${id} is listed as not read, yet the catalog claims it`);
      continue;
    }
    assert.ok(entry, `${id} (${m.kind}, ${m.publisher}) has no catalog entry`);
    assert.equal(entry.dataset, EVENT_RECORDS.has(id) ? 'outage_events' : DATASET_OF_KIND[m.kind], `${id}: dataset kind agrees with the manifest`);
    assert.equal(entry.coverage, m.coverage.type, `${id}: coverage shape agrees with the manifest`);
    if (entry.dataset === 'report_set') assert.ok(entry.report && (m.title as string).toLowerCase().includes(entry.report === 'wind' ? 'wind' : entry.report), `${id}: report type ${entry.report} is the title's`);
    if (entry.dataset === 'daily_series' || entry.dataset === 'outage_series') assert.ok(entry.series, `${id}: series quantity known`);
    if (entry.catalog_peril) assert.ok(m.perils.includes(entry.catalog_peril), `${id}: catalog peril ${entry.catalog_peril} is one the manifest serves`);
  }
});

test('families, parsers and units of the pinned feeds', () => {
  const of = (id: string) => feedEntry(manifestOf(id))!;
  assert.deepEqual(
    { parser: of('noaa-spc-hail-denver').parser, report: of('noaa-spc-hail-denver').report, native: of('noaa-spc-hail-denver').native_unit, si: of('noaa-spc-hail-denver').si_unit },
    { parser: 'spc', report: 'hail', native: 'in', si: 'mm' },
  );
  assert.equal(of('noaa-spc-tornado-omaha').native_unit, 'EF');
  assert.equal(of('noaa-spc-tornado-omaha').si_unit, null);
  assert.equal(of('noaa-ncei-storm-events-wind-denver').si_unit, 'm/s');
  assert.equal(of('usgs-mtbs-colorado').native_unit, 'acres');
  assert.equal(of('usgs-comcat-m6-chile').catalog_peril, 'earthquake');
  assert.equal(of('ghcnd-usw00003870-wind').default_element, 'AWND');
  assert.equal(of('ghcnd-usw00012816-prcp').default_element, 'PRCP');
  assert.equal(of('knmi-neerslaggeg-336-prcp').default_element, null);
  assert.equal(of('usgs-nwis-01509000-discharge').si_unit, 'm3/s');
  assert.equal(of('gema-county-outages-13121').series, 'outage');
  assert.deepEqual(of('doe-oe417-disturbance-events').class, { kind: 'outage_event_set', reading: 'oe417' });
  assert.deepEqual(of('purdue-major-power-outages-us').class, { kind: 'outage_event_set', reading: 'purdue' });
  assert.equal(of('doe-oe417-disturbance-events').series, null);
  assert.equal(of('jtwc-best-track-north-indian').parser, 'jtwc');
  assert.equal(of('noaa-nhc-hurdat2-atlantic').parser, 'hurdat2');
  assert.equal(of('oed-spec').dataset, 'reference_table');
  assert.equal(of('oq-gmpe-verification').parser, 'gmpe-tables');
  assert.equal(of('gem-vulnerability-europe').parser, 'nrml-vulnerability');
  assert.equal(of('climada-demo-tc').parser, 'climada');
  assert.equal(of('climada-demo-tc').dataset, 'model_data');
  assert.equal(of('tc-impact-functions').parser, 'tc-impact-functions');
  assert.equal(of('tc-impact-functions').dataset, 'reference_table');
});

test('the manifest must agree with the key: an id alone does not make a feed a member of a family', () => {
  const m = manifestOf('usgs-comcat-m6-chile');
  // Tiny hand-made manifests: the same id stating another kind or another publisher.
  assert.equal(feedEntry({ ...m, kind: 'daily_series' }), undefined);
  assert.equal(feedEntry({ ...m, publisher: 'Someone else' }), undefined);
  assert.deepEqual(feedClass({ feed_id: 'usgs-comcat-m6-chile', kind: 'daily_series' }), { kind: 'daily_series', series: null });
  // A feed the catalog does not know keeps its stated kind, with no meaning read from its id.
  assert.deepEqual(feedClass({ feed_id: 'acme-hail-test', kind: 'storm_report_set', publisher: 'ACME' }), { kind: 'storm_report_set', report: null });
});

test('flood depth maps: the pinned river maps, and a coastal map recognised by its manifest alone', () => {
  const of = (id: string) => feedEntry(manifestOf(id))!;
  assert.deepEqual([of('climada-flood-san-salvador').flood_map, of('climada-flood-san-salvador').parser], ['river', 'hazard-hdf5']);
  assert.deepEqual([of('wri-aqueduct-inunriver-djibouti').flood_map, of('wri-aqueduct-inunriver-djibouti').parser], ['river', 'geotiff-raster']);
  assert.equal(of('jrc-depth-damage').parser, 'depth-damage-tables');
  assert.equal(of('usgs-mtbs-colorado').flood_map, null);
  // A hand-made manifest of a coastal Aqueduct map, as `catrisk feeds add` would pin one: no code names it.
  const river = manifestOf('wri-aqueduct-inunriver-djibouti');
  const coastal = { ...river, feed_id: 'wri-aqueduct-inuncoast-mozambique', country_iso_a3: 'MOZ', jrc_continent: 'africa', scenario: { hazard: 'coastal inundation', year: 2010, sea_level: '2010' } };
  assert.equal(feedEntry(coastal)?.flood_map, 'coastal');
  assert.equal(feedEntry({ ...coastal, publisher: 'Someone else' }), undefined);
  const facts = floodMapFacts(coastal);
  assert.deepEqual([facts.iso_a3, facts.continent], ['MOZ', 'africa']);
  assert.match(facts.scenario, /^2010 conditions/);
  // The pinned maps: the country and continent stated with the basis; the Aqueduct map labelled a 2030 projection.
  assert.deepEqual([floodMapFacts(manifestOf('climada-flood-san-salvador')).iso_a3, floodMapFacts(manifestOf('climada-flood-san-salvador')).continent], ['SLV', 'central america']);
  const djibouti = floodMapFacts(manifestOf('wri-aqueduct-inunriver-djibouti'));
  assert.deepEqual([djibouti.iso_a3, djibouti.continent], ['DJI', 'africa']);
  assert.match(djibouti.scenario, /^2030 projection .*RCP4\.5/);
  // A map stating no place takes no guessed one.
  const bare = floodMapFacts({ feed_id: 'wri-aqueduct-inuncoast-somewhere' });
  assert.deepEqual([bare.iso_a3, bare.continent], [null, null]);
});

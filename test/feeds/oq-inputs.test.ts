// The readers of an OpenQuake user's files (oq-exposure, oq-vulnerability, oq-gmfs) on small
// documents written here by hand in the layouts OpenQuake reads and writes: what they read, and
// that each unreadable file is an error naming what could not be read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOqExposure } from '../../src/feeds/parsers/oq-exposure.js';
import { parseOqVulnerability } from '../../src/feeds/parsers/oq-vulnerability.js';
import { parseOqGmfs } from '../../src/feeds/parsers/oq-gmfs.js';

const EXPOSURE = (assets: string, conversions = '<costTypes><costType name="structural" type="per_asset" unit="EUR"/></costTypes>') =>
  `<?xml version="1.0"?><nrml xmlns="http://openquake.org/xmlns/nrml/0.5"><!-- a comment <asset id="x"/> -->
  <exposureModel id="ex" category="buildings" taxonomySource="GEM">
  <description>Hand &amp; made</description><conversions>${conversions}</conversions>
  <occupancyPeriods>night</occupancyPeriods><tagNames>NAME_1 ID_1</tagNames><assets>${assets}</assets></exposureModel></nrml>`;

test('an exposure: cost types, number and area defaults, occupants, tags, insurance terms, entities and comments', () => {
  const m = parseOqExposure(EXPOSURE(`
    <asset id='a1' taxonomy="RC/H1" number="3"><location lon="10.5" lat="45.25"/>
      <costs><cost type="structural" value="1000" deductible="100" insuranceLimit="2000"/></costs>
      <occupancies><occupancy occupants="4" period="night"/></occupancies><tags NAME_1="Lom&lt;bardia" ID_1="9"/></asset>
    <asset id="a2" taxonomy="W"><location lon="-1" lat="2"/><costs><cost type="structural" value="50"/></costs></asset>`));
  assert.equal(m.nrml, '0.5');
  assert.equal(m.description, 'Hand & made');
  assert.deepEqual(m.cost_types, [{ name: 'structural', type: 'per_asset', unit: 'EUR' }]);
  assert.equal(m.deductible_is_absolute, true);
  assert.equal(m.assets.length, 2);
  assert.deepEqual(m.assets[0], {
    id: 'a1', taxonomy: 'RC/H1', number: 3, area: 1, lon: 10.5, lat: 45.25,
    costs: { structural: { value: 1000, deductible: 100, insurance_limit: 2000 } },
    occupants: { night: 4 }, tags: { NAME_1: 'Lom<bardia', ID_1: '9' },
  });
  assert.equal(m.assets[1]!.number, 1);
  assert.deepEqual(m.tag_names, ['NAME_1', 'ID_1']);
});

test('an exposure that does not read: each fault named', () => {
  const bad: [string, string][] = [
    ['<nrml><exposureModel/></nrml>', 'not an NRML document: no <nrml xmlns="http://openquake.org/xmlns/nrml/..."> around the exposureModel'],
    [EXPOSURE('<asset id="a" taxonomy="W"><location lon="1" lat="2"/><costs><cost type="contents" value="1"/></costs></asset>'), 'asset a: cost type "contents" is not among the <costTypes> (structural)'],
    [EXPOSURE('<asset id="a" taxonomy="W"><location lon="1" lat="2"/><costs><cost type="structural" value="x"/></costs></asset>'), 'asset a: structural value: "x" is not a number'],
    [EXPOSURE('<asset id="a" taxonomy="W"><location lon="1" lat="2"/><costs><cost type="structural" value="1" deductible="1"/></costs></asset>'), 'asset a: the structural cost has a deductible or an insuranceLimit without the other; insured losses need both'],
    [EXPOSURE('<asset id="a" taxonomy="W"><location lon="1" lat="2"/></asset><asset id="a" taxonomy="W"><location lon="1" lat="2"/></asset>'), 'asset id a appears twice'],
    [EXPOSURE('<asset id="a" taxonomy="W"><location lon="200" lat="2"/></asset>'), 'asset a: location 200 2 is not a longitude and latitude'],
    [EXPOSURE('assets.csv'), '<assets> names CSV files (assets.csv) instead of holding <asset> elements; an upload is one file: write the assets into the XML'],
    [EXPOSURE('<asset id="a" taxonomy="W"><location lon="1" lat="2"/></asset>', '<costTypes><costType name="structural" type="per_area" unit="EUR"/></costTypes>'), 'a per_area cost type needs the <area type unit> conversion'],
    [EXPOSURE('<asset id="a" taxonomy="W"><location lon="1" lat="2"/></asset>', '<costTypes><costType name="structural" type="aggregate" unit="EUR"/></costTypes>'), '<costType name="structural">: type "aggregate" is not aggregated, per_asset or per_area'],
  ];
  for (const [xml, message] of bad) assert.throws(() => parseOqExposure(xml), { message });
});

const VF = (body: string, dist = 'LN') => `<nrml xmlns="http://openquake.org/xmlns/nrml/0.5"><vulnerabilityModel id="v" assetCategory="buildings" lossCategory="structural">
  <vulnerabilityFunction id="F" dist="${dist}">${body}</vulnerabilityFunction></vulnerabilityModel></nrml>`;

test('a vulnerability model that does not read: each fault named as OpenQuake\'s checks word it', () => {
  const bad: [string, string][] = [
    [VF('<imls imt="PGA">0.1 0.2</imls><meanLRs>0.1 0.2 0.3</meanLRs><covLRs>0 0 0</covLRs>'), 'vulnerability function F: 2 levels, 3 mean loss ratios, 3 CoVs'],
    [VF('<imls imt="PGA">0.2 0.1</imls><meanLRs>0.1 0.2</meanLRs><covLRs>0 0</covLRs>'), 'vulnerability function F: levels are not ascending without repeats (0.2 then 0.1)'],
    [VF('<imls imt="PGA">0.1 0.2</imls><meanLRs>0 0.2</meanLRs><covLRs>0.1 0</covLRs>'), 'vulnerability function F: a mean loss ratio of 0 with a CoV of 0.1 above 0'],
    [VF('<imls imt="PGA">0.1 0.2</imls><meanLRs>0.5 0.9</meanLRs><covLRs>0.5 0.5</covLRs>', 'BT'), 'vulnerability function F: the beta CoV 0.5 at mean 0.9 breaks CoV² ≤ 1/mean − 1'],
    [VF('<imls imt="PGA">0.1 0.2</imls><meanLRs>0.5 0.9</meanLRs>', 'XX'), 'vulnerability function F: distribution "XX" is not LN, BT or PM'],
    [VF('<imls imt="PGA">0.1 0.2</imls><probabilities lr="0">1 0.5 0</probabilities>', 'PM'), 'vulnerability function F: 2 levels, 3 probabilities at lr 0'],
    [VF('<imls>0.1 0.2</imls><meanLRs>0.5 0.9</meanLRs>'), 'vulnerability function F: no <imls imt="...">'],
  ];
  for (const [xml, message] of bad) assert.throws(() => parseOqVulnerability(xml), { message });
  // covLRs may be left out: they are 0 (VulnerabilityFunction's covs=None).
  assert.deepEqual((parseOqVulnerability(VF('<imls imt="PGA">0.1 0.2</imls><meanLRs>0.1 0.2</meanLRs>')).functions[0] as unknown as { cov_lrs: number[] }).cov_lrs, [0, 0]);
});

test('ground-motion fields: the engine\'s input and export layouts, and each fault named', () => {
  // The export layout: a generated_by line, event_id, gmv_ columns and custom_site_id (engine 3.15+).
  const g = parseOqGmfs(
    '#,,"generated_by=\'OpenQuake engine\'"\nevent_id,gmv_PGA,gmv_SA(0.3),custom_site_id\n3,0.5,0.7,sqg14hdk\n1,0.25,0.3,sqg14hdk\n',
    '#,,"generated_by"\ncustom_site_id,lon,lat\nsqg14hdk,15.56000,38.17000\n',
  );
  assert.deepEqual(g.sites, [{ id: 'sqg14hdk', lon: 15.56, lat: 38.17 }]);
  assert.deepEqual(g.events, [1, 3]);
  assert.deepEqual(g.imts, ['PGA', 'SA(0.3)']);
  assert.deepEqual([...g.event_index], [1, 0]);
  assert.deepEqual([...g.values[1]!], [0.7, 0.3]);
  // Sites with lon and lat only: a site's id is its ordinal.
  const o = parseOqGmfs('sid,eid,PGA\n1,0,0.1\n', 'lon,lat\n1,2\n3,4\n');
  assert.deepEqual([...o.site_index], [1]);
  const bad: [string, string, string][] = [
    ['sid,eid,gmv_PGA\n7,0,0.1\n', 'site_id,lon,lat\n0,1,2\n', 'gmf_data.csv line 2: site 7 is not in sites.csv'],
    ['sid,eid,gmv_PGA\n0,0,0.1\n0,0,0.2\n', 'site_id,lon,lat\n0,1,2\n', 'gmf_data.csv line 3: site 0 and event 0 appear twice'],
    ['sid,eid,gmv_PGA\n0,0,-0.1\n', 'site_id,lon,lat\n0,1,2\n', 'gmf_data.csv line 2: gmv_PGA -0.1 is negative'],
    ['sid,eid,gmv_PGA\n0,0.5,0.1\n', 'site_id,lon,lat\n0,1,2\n', 'gmf_data.csv line 2: event id 0.5 is not a whole number from 0'],
    ['sid,gmv_PGA\n0,0.1\n', 'site_id,lon,lat\n0,1,2\n', 'gmf_data.csv has no eid or event_id column (its header is sid,gmv_PGA)'],
    ['sid,eid\n0,0\n', 'site_id,lon,lat\n0,1,2\n', 'gmf_data.csv has no intensity measure column (gmv_PGA, gmv_SA(0.3), ...)'],
    ['sid,eid,gmv_PGA\n0,0\n', 'site_id,lon,lat\n0,1,2\n', 'gmf_data.csv line 2: 2 fields where the header has 3'],
    ['sid,eid,gmv_PGA\n0,0,0.1\n', 'site_id,lat\n0,2\n', 'sites.csv has no lon column (its header is site_id,lat)'],
  ];
  for (const [gmf, sites, message] of bad) assert.throws(() => parseOqGmfs(gmf, sites), { message });
});

// ESHM20's two pinned NRML 0.4 source-model branches as the parser reads them, checked against the
// XML text read independently here (tags counted, attributes cut out of the raw text), against the
// snapshot's manifest (its check block, computed by the snapshot's own reading in Python), and the
// parser's strictness on hand-made documents written in this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { manifestOf, rawFile } from '../support/feeds.js';
import { parseNrmlSourceModel } from '../../src/feeds/parsers/nrml-source-model.js';
import { ESHM20_INPUTS } from '../../src/domain/lab/lanes/eshm20-earthquake/lane.js';

const FEED = ESHM20_INPUTS.area_sources.feed_id;
const AREA = ESHM20_INPUTS.area_sources.file;
const FAULTS = ESHM20_INPUTS.fault_sources.file;
const text = (file: string) => rawFile(FEED, file).toString('utf8');

test('the area-source branch: 375 area sources, their regions, the first source as its XML says', () => {
  const xml = text(AREA);
  const model = parseNrmlSourceModel(xml);
  const check = manifestOf(FEED).check[AREA];
  assert.equal(model.name, check.name);
  assert.equal(model.area.length, (xml.match(/<areaSource\s/g) ?? []).length);
  assert.equal(model.area.length, 375);
  assert.equal(model.faults.length, 0);
  const regions: Record<string, number> = {};
  for (const s of model.area) regions[s.tectonic_region] = (regions[s.tectonic_region] ?? 0) + 1;
  assert.deepEqual(regions, check.trts);
  // The first source, read off the XML text above: ALAS003 (Albania).
  const first = model.area[0]!;
  assert.equal(first.id, 'maina_lo_uppALAS003');
  assert.deepEqual(first.mfd, { a: 4.0442, b: 0.9057, min_mag: 4.5, max_mag: 7.8 });
  assert.deepEqual([first.upper_depth_km, first.lower_depth_km, first.msr, first.aspect_ratio], [0, 14, 'PointMSR', 1]);
  assert.deepEqual(first.nodal_planes, [{ strike: 46.79, dip: 56.56, rake: 0, probability: 1 }]);
  assert.deepEqual(first.hypo_depths, [{ depth_km: 8.4, probability: 1 }]);
  assert.equal(first.polygon.length, 12);
  assert.deepEqual(first.polygon[0], [21.0775, 40.7276]);
  assert.deepEqual(first.polygon[11], first.polygon[0]);
  // Every source: the MFD's numbers are those of its XML attributes, exactly.
  const attrs = [...xml.matchAll(/<truncGutenbergRichterMFD aValue="([^"]+)" bValue="([^"]+)" minMag="([^"]+)" maxMag="([^"]+)"/g)];
  assert.equal(attrs.length, 375);
  attrs.forEach((m, i) => assert.deepEqual(model.area[i]!.mfd, { a: Number(m[1]), b: Number(m[2]), min_mag: Number(m[3]), max_mag: Number(m[4]) }));
  // Each source's rate above its minimum magnitude, 10^(a - b Mmin) - 10^(a - b Mmax), summed: the
  // manifest's check (rounded there to 4 decimals, so to 5e-5).
  const sum = model.area.reduce((s, x) => s + 10 ** (x.mfd.a - x.mfd.b * x.mfd.min_mag) - 10 ** (x.mfd.a - x.mfd.b * x.mfd.max_mag), 0);
  assert.ok(Math.abs(sum - check.sum_rate_above_minMag) < 5e-5, `${sum}`);
  const maxMags = model.area.map((s) => s.mfd.max_mag);
  assert.deepEqual([Math.min(...maxMags), Math.max(...maxMags)], check.maxMag_range);
});

test('the fault-source branch: 1,003 simple faults, the first fault as its XML says', () => {
  const xml = text(FAULTS);
  const model = parseNrmlSourceModel(xml);
  const check = manifestOf(FEED).check[FAULTS];
  assert.equal(model.name, check.name);
  assert.equal(model.faults.length, (xml.match(/<simpleFaultSource\s/g) ?? []).length);
  assert.equal(model.faults.length, 1003);
  assert.equal(model.area.length, 0);
  const first = model.faults[0]!;
  assert.equal(first.id, 'PTCF004');
  assert.deepEqual([first.dip, first.upper_depth_km, first.lower_depth_km, first.rake], [90, 2, 15, 0]);
  assert.deepEqual([first.msr, first.aspect_ratio], ['Leonard2014_Interplate', 2.6]);
  assert.deepEqual(first.mfd, { a: 4.0961, b: 0.87, min_mag: 6.3, max_mag: 6.9 });
  assert.equal(first.trace.length, 11);
  assert.deepEqual(first.trace[0], [-30.81635, 38.422781]);
  assert.deepEqual(first.trace[10], [-30.215762, 38.370237]);
  // Scaling relations and rakes counted off the text.
  const msr: Record<string, number> = {};
  for (const f of model.faults) msr[f.msr] = (msr[f.msr] ?? 0) + 1;
  assert.deepEqual(msr, { Leonard2014_Interplate: 955, Leonard2014_SCR: 48 });
  assert.deepEqual(model.faults.map((f) => f.rake), [...xml.matchAll(/<rake>([^<]+)<\/rake>/g)].map((m) => Number(m[1])));
  const sum = model.faults.reduce((s, x) => s + 10 ** (x.mfd.a - x.mfd.b * x.mfd.min_mag) - 10 ** (x.mfd.a - x.mfd.b * x.mfd.max_mag), 0);
  assert.ok(Math.abs(sum - check.sum_rate_above_minMag) < 5e-5, `${sum}`);
});

// Hand-made documents (not pinned data): one area source, then broken copies of it.
const HAND = `<?xml version="1.0"?>
<nrml xmlns="http://openquake.org/xmlns/nrml/0.4" xmlns:gml="http://www.opengis.net/gml"><sourceModel name="hand">
<areaSource id="A1" name="a" tectonicRegion="Shallow Default"><areaGeometry><gml:Polygon><gml:exterior><gml:LinearRing>
<gml:posList>10 40 11 40 11 41 10 41</gml:posList></gml:LinearRing></gml:exterior></gml:Polygon>
<upperSeismoDepth>0</upperSeismoDepth><lowerSeismoDepth>20</lowerSeismoDepth></areaGeometry>
<magScaleRel>PointMSR</magScaleRel><ruptAspectRatio>1.0</ruptAspectRatio>
<truncGutenbergRichterMFD aValue="3" bValue="1" minMag="5" maxMag="7"/>
<nodalPlaneDist><nodalPlane strike="0" dip="90" rake="0" probability="0.6"/><nodalPlane strike="90" dip="45" rake="-90" probability="0.4"/></nodalPlaneDist>
<hypoDepthDist><hypoDepth depth="5" probability="0.5"/><hypoDepth depth="10" probability="0.5"/></hypoDepthDist>
</areaSource></sourceModel></nrml>`;

test('a hand-made area source reads; broken copies are errors naming the source', () => {
  const model = parseNrmlSourceModel(HAND);
  assert.equal(model.area[0]!.nodal_planes.length, 2);
  assert.deepEqual(model.area[0]!.hypo_depths.map((d) => d.depth_km), [5, 10]);
  assert.throws(() => parseNrmlSourceModel(HAND.replace('probability="0.4"', 'probability="0.3"')), /A1: 2 nodalPlane entries weighing 0\.8999.*, not 1/);
  assert.throws(() => parseNrmlSourceModel(HAND.replace('bValue="1"', 'bValue="x"')), /A1: bValue "x" is not a number/);
  assert.throws(() => parseNrmlSourceModel(HAND.replace(/<truncGutenbergRichterMFD[^>]*\/>/, '<incrementalMFD minMag="5" binWidth="0.1"><occurRates>1</occurRates></incrementalMFD>')), /A1: the MFD is not a truncGutenbergRichterMFD/);
  assert.throws(() => parseNrmlSourceModel(HAND.replace(/areaSource/g, 'pointSource')), /A1: pointSource is not read/);
  assert.throws(() => parseNrmlSourceModel(HAND.replace('nrml/0.4', 'nrml/0.5')), /not an NRML 0.4 document/);
});

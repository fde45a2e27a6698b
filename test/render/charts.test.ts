// The chart writers on hand-made numbers: each SVG well-formed (read by a strict reader and by
// resvg), the marks where the numbers put them (one group per year, missing years shaded, the
// terms' lines at their amounts, log-spaced return periods), the map's point cap, determinism,
// and one PNG rendered for real.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Resvg } from '@resvg/resvg-js';
import { backtestChart, type BacktestChartInput } from '../../src/render/backtest-chart.js';
import { epCurve, type EpCurveInput } from '../../src/render/ep-curve.js';
import { MapPoints, locationsMap } from '../../src/render/locations-map.js';
import { svgToPng } from '../../src/render/png.js';
import { esc, niceTicks, num } from '../../src/render/svg.js';
import { classed, findAll, parseXml, type XmlElement } from '../support/xml.js';

/** The SVG read strictly, and by resvg (which refuses a malformed document). */
function wellFormed(svg: string): XmlElement {
  const root = parseXml(svg);
  assert.equal(root.name, 'svg');
  assert.equal(root.attrs.xmlns, 'http://www.w3.org/2000/svg');
  assert.ok(new Resvg(svg).width > 0);
  return root;
}

const n = (e: XmlElement, attr: string) => Number(e.attrs[attr]);

const YEARS: BacktestChartInput['years'] = [
  { year: 2000, record: 'partial', payout: null, payout_on_partial_record: 400_000 },
  { year: 2001, record: 'complete', payout: 0 },
  { year: 2002, record: 'complete', payout: 750_000 },
  { year: 2003, record: 'missing', payout: null },
  { year: 2004, record: 'complete', payout: 1_500_000 },
  { year: 2005, record: 'complete', payout: 250_000 },
].map((y) => ({ term: { from: `${y.year}-04-01`, to: `${y.year}-09-30` }, gross_payout: y.payout, rate_on_line: null, occurrences: [], ...y }) as BacktestChartInput['years'][number]);

const ARTIFACT: BacktestChartInput = {
  id: 'bt_test',
  feed: { feed_id: 'noaa-spc-hail-denver', version: '2011-08-19 <&>', sha256: 'f'.repeat(64) },
  window: { from_year: 2000, to_year: 2005, defaulted: false, defaulted_members: [] },
  currency: 'USD',
  years: YEARS,
  structure: {
    peril: { code: 'severe_convective_storm' },
    trigger: { payout: { function: 'ladder', levels: [{ at_least: 1.75, fraction: 0.25 }, { at_least: 2.75, fraction: 1 }] }, measurement: { variable: 'hail_diameter', unit: 'in' } },
    financial_structure: { currency: 'USD', limit: 1_000_000, attachment: 250_000, annual_limit: 1_500_000, annual_cap: 1_500_000 },
  },
};

test('the SVG writer escapes text and writes numbers one way', () => {
  assert.equal(esc('a<b & "c" \'d\'>'), 'a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;');
  assert.equal(num(1.005), '1');
  assert.equal(num(12.5), '12.5');
  assert.equal(num(-0.001), '0');
  assert.equal(num(100), '100');
  assert.throws(() => num(Number.NaN), RangeError);
  assert.deepEqual(niceTicks(0, 1_500_000, 5), [0, 500_000, 1_000_000, 1_500_000]);
  assert.deepEqual(niceTicks(0, 7, 5), [0, 2, 4, 6, 8]);
  assert.deepEqual(niceTicks(-121.5, -113.6, 6), [-122, -120, -118, -116, -114, -112]);
});

test('the test\'s XML reader refuses what is not well-formed', () => {
  for (const bad of ['<a><b></a></b>', '<a x=1/>', '<a x="1" x="2"/>', '<a>&nbsp;</a>', '<a>1 & 2</a>', '<a/><b/>', '<a>', 'text<a/>']) {
    assert.throws(() => parseXml(bad), Error, bad);
  }
  assert.equal(parseXml('<?xml version="1.0"?>\n<a k="&lt;&#65;"><b>x &amp; y</b></a>').children[0]!.text, 'x & y');
});

test('a backtest chart: one group per year, missing years shaded, bars and lines on one scale', () => {
  const svg = backtestChart(ARTIFACT);
  const root = wellFormed(svg);
  const groups = findAll(root, classed('year'));
  assert.deepEqual(groups.map((g) => Number(g.attrs['data-year'])), [2000, 2001, 2002, 2003, 2004, 2005]);
  assert.deepEqual(groups.map((g) => g.attrs['data-record']), ['partial', 'complete', 'complete', 'missing', 'complete', 'complete']);
  // A missing year is a shaded band and never a bar; every other year is one bar.
  for (const g of groups) {
    const bars = findAll(g, classed('bar'));
    const shades = findAll(g, classed('missing'));
    assert.equal(bars.length + shades.length, 1, `year ${g.attrs['data-year']}`);
    assert.equal(shades.length, g.attrs['data-record'] === 'missing' ? 1 : 0);
  }
  assert.equal(findAll(root, classed('bar', 'partial')).length, 1);
  // The bars' baseline, and the amount one pixel stands for, from the limit's line.
  const bars = findAll(root, classed('bar'));
  const baseline = n(bars[0]!, 'y') + n(bars[0]!, 'height');
  const line = (kind: string) => { const [l] = findAll(root, classed('line', kind)); assert.ok(l, kind); return l; };
  const perPixel = 1_000_000 / (baseline - n(line('limit'), 'y1'));
  assert.ok(Math.abs((baseline - n(line('attachment'), 'y1')) * perPixel - 250_000) < 2_000);
  assert.ok(Math.abs((baseline - n(line('cap'), 'y1')) * perPixel - 1_500_000) < 2_000);
  assert.equal(line('attachment').attrs['data-value'], '250000');
  for (const bar of bars) {
    assert.ok(Math.abs(n(bar, 'height') * perPixel - Number(bar.attrs['data-payout'])) < 2_000, bar.attrs['data-payout']);
    assert.ok(Math.abs(n(bar, 'y') + n(bar, 'height') - baseline) < 0.02);
  }
  assert.deepEqual(bars.map((b) => Number(b.attrs['data-payout'])), [400_000, 0, 750_000, 1_500_000, 250_000]);
  // The title names the peril and the feed; text is escaped, never markup.
  const [title] = findAll(root, classed('title'));
  assert.equal(title!.text, 'severe_convective_storm backtest: noaa-spc-hail-denver 2011-08-19 <&>, 2000 to 2005');
  const desc = root.children.find((c) => c.name === 'desc')!.text;
  assert.match(desc, /Years with no record: 2003\. Partial years: 2000\./);
  assert.equal(backtestChart(structuredClone(ARTIFACT)), svg, 'the same numbers draw the same bytes');
});

test('a backtest chart without an attachment draws no attachment line, and no cap line when the cap is the limit', () => {
  const svg = backtestChart({ ...ARTIFACT, structure: { ...ARTIFACT.structure, financial_structure: { currency: 'USD', limit: 1_000_000, attachment: 0, annual_cap: 1_000_000 } } });
  const root = wellFormed(svg);
  assert.deepEqual(findAll(root, classed('line')).map((l) => l.attrs.class), ['line limit']);
});

const CURVE = (rps: number[]): EpCurveInput => ({
  perspective: 'gul',
  periods: 10_000,
  average_annual_loss: { mean: 12_345, standard_deviation: 1, standard_error: 0.01 },
  exceedance: {
    rule: 'published when periods >= 10 x return period',
    max_published_return_period: 1000,
    oep: rps.map((rp) => ({ return_period: rp, loss: 1000 * rp, tvar: 1500 * rp })),
    aep: rps.map((rp) => ({ return_period: rp, loss: 1200 * rp, tvar: 1700 * rp })),
    withheld: [{ return_period: 5000, periods_needed: 50_000 }],
  },
});

test('an EP curve: OEP, AEP and their TVaR through every published point, on a log return-period axis', () => {
  const rps = [2, 5, 10, 100, 1000];
  const svg = epCurve(CURVE(rps), 'run x: exceedance probability');
  const root = wellFormed(svg);
  for (const kind of ['oep', 'oep-tvar', 'aep', 'aep-tvar']) {
    const [curve] = findAll(root, classed('curve', kind));
    const points = findAll(curve!, classed('point'));
    assert.deepEqual(points.map((p) => Number(p.attrs['data-return-period'])), rps, kind);
    // Log scale: 10 → 100 spans as far as 100 → 1000.
    const x = (rp: number) => n(points.find((p) => p.attrs['data-return-period'] === String(rp))!, 'cx');
    assert.ok(Math.abs((x(100) - x(10)) - (x(1000) - x(100))) < 0.02, kind);
    assert.ok(Math.abs((x(10) - x(2)) / (x(100) - x(10)) - Math.log10(5)) < 0.001, kind);
  }
  // Loss is linear in y: the AEP TVaR at 1000 years stands 1700/1000 as high as the OEP at 1000.
  const at = (kind: string, rp: number) => findAll(findAll(root, classed('curve', kind))[0]!, (e) => e.attrs['data-return-period'] === String(rp))[0]!;
  const [axis] = findAll(root, (e) => e.name === 'line' && e.attrs.y1 === e.attrs.y2 && e.attrs.stroke === '#333333');
  const base = n(axis!, 'y1');
  assert.ok(Math.abs((base - n(at('aep-tvar', 1000), 'cy')) / (base - n(at('oep', 1000), 'cy')) - 1.7) < 0.01);
  assert.match(root.children.find((c) => c.name === 'desc')!.text, /withheld \(too few periods\): 5000 \(needs 50000\)/);
  assert.equal(epCurve(CURVE(rps), 'run x: exceedance probability'), svg);
  // No published point: an empty plot that says so, still well-formed.
  const empty = wellFormed(epCurve(CURVE([]), 'run y'));
  assert.equal(findAll(empty, classed('point')).length, 0);
});

test('the map keeps every k-th location past its cap, counts those without coordinates, and fits their extent', () => {
  const points = new MapPoints(10);
  for (let i = 0; i < 35; i += 1) points.add(i === 7 ? null : 10 + i / 10, 20 + i / 10);
  assert.equal(points.total, 35);
  assert.equal(points.withCoordinates, 34);
  assert.equal(points.stride, 4);
  // Kept: the 1st, 5th, 9th... location with coordinates (location 7 has none, so later ones shift by one).
  assert.deepEqual(points.points.map(([lon]) => Math.round((lon - 20) * 10)), [0, 4, 9, 13, 17, 21, 25, 29, 33]);
  assert.deepEqual(points.extent, { minLon: 20, maxLon: 23.4, minLat: 10, maxLat: 13.4 });

  const svg = locationsMap({ heading: 'Locations of obj_x', points, region: null, regionNote: null });
  const root = wellFormed(svg);
  const circles = findAll(root, (e) => e.name === 'circle');
  assert.equal(circles.length, 9);
  assert.match(root.children.find((c) => c.name === 'desc')!.text, /^9 of 35 locations drawn \(one in 4, in schedule order: at most 20000 are drawn\); 1 without coordinates\./);
  // Equirectangular: one scale for longitude and latitude (these points lie on a 45° line).
  const [first, last] = [circles[0]!, circles[circles.length - 1]!];
  assert.ok(Math.abs((n(last, 'cx') - n(first, 'cx')) + (n(last, 'cy') - n(first, 'cy'))) < 0.05);
  assert.equal(locationsMap({ heading: 'Locations of obj_x', points, region: null, regionNote: null }), svg);
});

test('the map draws a box, a polygon gate and a box across the antimeridian around the locations', () => {
  const points = new MapPoints();
  points.add(34.01, -118.01);
  points.add(34.02, -118.02);
  const box = wellFormed(locationsMap({ heading: 'h', points, region: { type: 'box', min_latitude: 32, max_latitude: 36, min_longitude: -121, max_longitude: -114 }, regionNote: 'the box' }));
  const [rect] = findAll(box, classed('region', 'box'));
  const corners = rect!.attrs.points!.split(' ').map((p) => p.split(',').map(Number));
  assert.equal(corners.length, 4);
  // Every location lies inside the box as drawn.
  for (const c of findAll(box, (e) => e.name === 'circle')) {
    assert.ok(n(c, 'cx') > corners[0]![0]! && n(c, 'cx') < corners[1]![0]! && n(c, 'cy') < corners[0]![1]! && n(c, 'cy') > corners[2]![1]!);
  }
  const gate = wellFormed(locationsMap({ heading: 'h', points, region: { type: 'polygon', coordinates: [[[-119, 33], [-117, 33], [-118, 35], [-119, 33]]] }, regionNote: null }));
  assert.equal(findAll(gate, classed('region', 'polygon'))[0]!.attrs.points!.split(' ').length, 4);
  const across = new MapPoints();
  across.add(-17, 179);
  wellFormed(locationsMap({ heading: 'h', points: across, region: { type: 'box', min_latitude: -20, max_latitude: -15, min_longitude: 175, max_longitude: -178 }, regionNote: null }));
  // No location with coordinates and no region: a world map, still a document.
  const none = new MapPoints();
  none.add(null, null);
  assert.equal(findAll(wellFormed(locationsMap({ heading: 'h', points: none, region: null, regionNote: null })), (e) => e.name === 'circle').length, 0);
});

test('a chart rendered to PNG for real: the signature and the SVG\'s size', async () => {
  const png = await svgToPng(backtestChart(ARTIFACT));
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
  assert.equal(png.readUInt32BE(16), 860);
  assert.equal(png.readUInt32BE(20), 460);
  assert.deepEqual(await svgToPng(backtestChart(ARTIFACT)), png, 'the same SVG rasterises to the same bytes');
});

test('locations either side of the antimeridian are drawn together, labelled as written', () => {
  // Hand-made points: three in Fiji either side of 180°, and the same three moved to 0° for the yardstick.
  const fiji = new MapPoints();
  for (const [lat, lon] of [[-17.7, 179.9], [-17.8, -179.9], [-17.75, 179.95]] as const) fiji.add(lat, lon);
  assert.deepEqual(fiji.wrapped(), { west: 179.9, east: 180.1 });
  const root = wellFormed(locationsMap({ heading: 'h', points: fiji, region: null, regionNote: null }));
  const cx = findAll(root, (e) => e.name === 'circle').map((c) => n(c, 'cx'));
  // In schedule order: 179.9, -179.9 (drawn at 180.1, east of 179.95), 179.95.
  assert.ok(cx[0]! < cx[2]! && cx[2]! < cx[1]!, `drawn in longitude order across 180°: ${cx.join(', ')}`);
  const labels = findAll(root, (e) => e.name === 'text' && e.attrs.class === 'tick' && e.attrs['text-anchor'] === 'middle').map((e) => e.text);
  assert.ok(labels.length > 0 && labels.every((l) => Math.abs(Number(l.replace('°', ''))) <= 180), labels.join(' '));
  assert.ok(labels.includes('180°') && labels.some((l) => l.startsWith('-179.')), labels.join(' '));
  assert.match(root.children.find((c) => c.name === 'desc')!.text, /^3 of 3 locations drawn, across the antimeridian\./);

  // The same points moved to 0° span the same 0.2°: the map's scale is the same.
  const meridian = new MapPoints();
  for (const [lat, lon] of [[-17.7, -0.1], [-17.8, 0.1], [-17.75, -0.05]] as const) meridian.add(lat, lon);
  assert.equal(meridian.wrapped(), null);
  const mx = findAll(wellFormed(locationsMap({ heading: 'h', points: meridian, region: null, regionNote: null })), (e) => e.name === 'circle').map((c) => n(c, 'cx'));
  assert.ok(Math.abs((cx[1]! - cx[0]!) - (mx[1]! - mx[0]!)) < 0.05, `${cx[1]! - cx[0]!} against ${mx[1]! - mx[0]!}`);

  // A box across the antimeridian drawn with them: every location inside it.
  const box = wellFormed(locationsMap({ heading: 'h', points: fiji, region: { type: 'box', min_latitude: -20, max_latitude: -15, min_longitude: 178, max_longitude: -178 }, regionNote: null }));
  const corners = findAll(box, classed('region', 'box'))[0]!.attrs.points!.split(' ').map((p) => p.split(',').map(Number));
  for (const c of findAll(box, (e) => e.name === 'circle')) assert.ok(n(c, 'cx') > corners[0]![0]! && n(c, 'cx') < corners[1]![0]!);

  // Locations spread over the world: the map is cut at their widest gap. Here it holds 180°
  // (120° wide against 60°), so the map is as written; with 110° between -170° and -60° (against
  // 20° over 180°), it starts at -60° and runs east to 190°.
  const spread = new MapPoints();
  for (const lon of [-120, -60, 0, 60, 120]) spread.add(0, lon);
  assert.equal(spread.wrapped(), null);
  const pacific = new MapPoints();
  for (const lon of [-170, -60, 0, 60, 170]) pacific.add(0, lon);
  assert.deepEqual(pacific.wrapped(), { west: -60, east: 190 });
  // A gap narrower than the antimeridian's never wraps: 10° and 20° against 350°.
  const near = new MapPoints();
  near.add(0, 10);
  near.add(0, 20);
  assert.equal(near.wrapped(), null);
});

// Charts as a person sees them. Titles and subtitles: every line drawn fits the picture, measured
// with DejaVu Sans itself (fontkit's layout, kerning included: the font the PNG renderer draws
// with, src/fonts.ts), and the lines together say the whole title. The map: Natural Earth's land
// under the points, checked on the rendered picture against the land mask's own answer
// (domain/land-mask.ts, point in polygon over the same polygons, a different path from the
// drawing's clip and thinning); points coloured by value with a legend. Each picture is kept as PNG
// under artifacts/charts/. Every input here is hand-made.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Resvg } from '@resvg/resvg-js';
import { backtestChart, type BacktestChartInput } from '../../src/render/backtest-chart.js';
import { epCurve, type EpCurveInput } from '../../src/render/ep-curve.js';
import { MapPoints, locationsMap } from '../../src/render/locations-map.js';
import { svgToPng } from '../../src/render/png.js';
import { pdfFonts } from '../../src/fonts.js';
import { naturalEarthLand, naturalEarthLandPolygons } from '../../src/land.js';
import { classed, findAll, parseXml, type XmlElement } from '../support/xml.js';
import { keepArtifact } from '../support/artifacts.js';

type Measured = { unitsPerEm: number; layout(text: string): { advanceWidth: number } };

/** A line's drawn width at `size`, by the font's own layout. */
function drawnWidth(text: string, size: number, bold: boolean): number {
  const font = (bold ? pdfFonts().bold : pdfFonts().regular) as unknown as Measured;
  return (font.layout(text).advanceWidth / font.unitsPerEm) * size;
}

/** Every title and subtitle line lies inside the picture, and the lines say `title` and `subtitle` whole. */
function headingsFit(svg: string, title: string, subtitle: string | null): XmlElement {
  const root = parseXml(svg);
  const width = Number(root.attrs.width);
  const lines = [...findAll(root, classed('title')), ...findAll(root, classed('subtitle'))];
  for (const line of lines) {
    const size = Number(line.attrs['font-size']);
    const right = Number(line.attrs.x) + drawnWidth(line.text, size, line.attrs['font-weight'] === 'bold');
    assert.ok(right <= width - 10, `"${line.text}" ends at ${right.toFixed(1)} of ${width}`);
  }
  assert.equal(findAll(root, classed('title')).map((l) => l.text).join(' '), title);
  if (subtitle !== null) assert.equal(findAll(root, classed('subtitle')).map((l) => l.text).join(' '), subtitle);
  // Lines do not overlap: each baseline at least its size below the last.
  for (let i = 1; i < lines.length; i++) assert.ok(Number(lines[i]!.attrs.y) - Number(lines[i - 1]!.attrs.y) >= Number(lines[i]!.attrs['font-size']), 'lines apart');
  return root;
}

const years = Array.from({ length: 40 }, (_, i) => ({
  year: 1983 + i, record: i === 3 ? 'missing' : 'complete', payout: i === 3 ? null : (i * 7919) % 5 === 0 ? 2_500_000 : 0,
  term: { from: `${1983 + i}-01-01`, to: `${1983 + i}-12-31` }, gross_payout: null, rate_on_line: null, occurrences: [],
})) as unknown as BacktestChartInput['years'];

// A ladder of five levels: the subtitle the issue saw cut ("…7.5 magnit").
const BACKTEST: BacktestChartInput = {
  id: 'bt_long',
  feed: { feed_id: 'usgs-comcat-m6-california', version: '2022-12-20', sha256: 'a'.repeat(64) },
  window: { from_year: 1983, to_year: 2022, defaulted: false, defaulted_members: [] },
  currency: 'USD',
  years,
  structure: {
    peril: { code: 'earthquake' },
    financial_structure: { limit: 10_000_000, attachment: 0, annual_cap: 10_000_000, currency: 'USD' },
    trigger: {
      measurement: { variable: 'magnitude', unit: 'magnitude' },
      payout: { function: 'ladder', levels: [6, 6.5, 7, 7.5, 8].map((m, i) => ({ at_least: m, fraction: (i + 1) / 5 })) },
    },
  },
};

test('a backtest chart\'s long title and subtitle wrap inside the picture, whole, in the SVG and the PNG', async () => {
  const svg = backtestChart(BACKTEST);
  const root = headingsFit(svg, 'earthquake backtest: usgs-comcat-m6-california 2022-12-20, 1983 to 2022',
    'Payout by year (USD), net of the annual aggregate. Trigger: magnitude: ladder, 6 magnitude pays 20%; 6.5 magnitude pays 40%; 7 magnitude pays 60%; 7.5 magnitude pays 80%; 8 magnitude pays 100% of the limit');
  assert.ok(findAll(root, classed('subtitle')).length >= 2, 'the subtitle takes two lines');
  // The plot starts under the last subtitle line.
  const last = findAll(root, classed('subtitle')).at(-1)!;
  for (const bar of findAll(root, classed('bar'))) assert.ok(Number(bar.attrs.y) > Number(last.attrs.y));
  keepArtifact('charts', 'backtest-long-subtitle.png', await svgToPng(svg));
});

test('an EP chart\'s and a map\'s long titles wrap inside the picture', async () => {
  const metrics: EpCurveInput = {
    perspective: 'gul', periods: 10_000, average_annual_loss: { mean: 1_234_567 } as EpCurveInput['average_annual_loss'],
    exceedance: {
      rule: 'r', withheld: [],
      oep: [10, 100, 1000].map((rp) => ({ return_period: rp, loss: rp * 1000, tvar: rp * 1500 })),
      aep: [10, 100, 1000].map((rp) => ({ return_period: rp, loss: rp * 1100, tvar: rp * 1600 })),
    } as unknown as EpCurveInput['exceedance'],
  };
  const heading = 'Exceedance probability: openquake-scenario-risk-with-a-long-model-identifier-and-more-words for the whole portfolio';
  const ep = epCurve(metrics, heading, 'Run lr_0123456789abcdef0123456789abcdef', 'EUR');
  headingsFit(ep, heading, null);
  keepArtifact('charts', 'ep-curve-long-title.png', await svgToPng(ep));

  const points = new MapPoints();
  points.add(34, -118, 1_000_000, 'USD');
  const mapHeading = 'Locations of obj_84b58e086c9428152048b4cb and the box of st_0123456789abcdef0123456789abcdef';
  headingsFit(locationsMap({ heading: mapHeading, points, region: null, regionNote: null }), mapHeading, null);
});

const LAND = [0xef, 0xea, 0xdf];
const SEA = [0xdc, 0xeb, 0xf5];

/** The pixel's colour in a rendered SVG (RGBA). */
function pixelAt(image: { width: number; pixels: Buffer }, x: number, y: number): [number, number, number] {
  const i = 4 * (Math.round(y) * image.width + Math.round(x));
  return [image.pixels[i]!, image.pixels[i + 1]!, image.pixels[i + 2]!];
}

test('the map draws Natural Earth\'s land under the points: the picture agrees with the land mask, and a legend names the values', async () => {
  // Hand-made schedule along the coast of Portugal and Spain: sea to the west, land to the east.
  const points = new MapPoints();
  const located: Array<[number, number, number | null]> = [[38.72, -9.14, 4_000_000], [41.15, -8.61, 2_500_000], [40.42, -3.7, 9_000_000], [37.39, -5.98, 1_200_000], [39.47, -0.38, null], [36.72, -4.42, 600_000]];
  for (const [lat, lon, value] of located) points.add(lat, lon, value, 'EUR');
  const svg = locationsMap({ heading: 'Locations on the Iberian coast', points, region: null, regionNote: null, land: naturalEarthLandPolygons().polygons });
  const root = parseXml(svg);
  const [land] = findAll(root, classed('land'));
  assert.ok(land && land.attrs.d!.length > 1000, 'a land layer with the coastline\'s detail');

  // Pixels of the frame turned back into degrees: the picture says land where the mask does.
  const [frame] = findAll(root, classed('frame'));
  const [fx, fy, fw, fh] = ['x', 'y', 'width', 'height'].map((a) => Number(frame!.attrs[a]));
  const [west, east, south, north] = ['data-west', 'data-east', 'data-south', 'data-north'].map((a) => Number(frame!.attrs[a]));
  const image = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
  const picture = { width: image.width, pixels: image.pixels };
  const mask = naturalEarthLand();
  const near = located.map(([lat, lon]) => [fx! + ((lon - west!) / (east! - west!)) * fw!, fy! + ((north! - lat) / (north! - south!)) * fh!]);
  let agree = 0, asked = 0;
  for (let i = 1; i < 40; i++) {
    for (let j = 1; j < 40; j++) {
      const px = fx! + (i / 40) * fw!, py = fy! + (j / 40) * fh!;
      if (near.some(([x, y]) => Math.hypot(px - x!, py - y!) < 8)) continue;
      const lon = west! + (i / 40) * (east! - west!), lat = north! - (j / 40) * (north! - south!);
      // A sample within about two pixels of a coast is left out: either colour is fair there.
      const step = 2 * (east! - west!) / fw!;
      const onLand = mask.isLand(lat, lon);
      if ([[step, 0], [-step, 0], [0, step], [0, -step]].some(([dx, dy]) => mask.isLand(lat + dy!, lon + dx!) !== onLand)) continue;
      const colour = pixelAt(picture, px, py);
      // Land is drawn #efeadf, the sea #dcebf5; a pixel of neither (a grid line, the coastline) is left out.
      const off = (c: readonly number[]) => Math.max(...c.map((v, k) => Math.abs(v - colour[k]!)));
      if (Math.min(off(LAND), off(SEA)) > 6) continue;
      const drawnLand = off(LAND) < off(SEA);
      asked += 1;
      if (drawnLand === onLand) agree += 1;
    }
  }
  assert.ok(asked > 1000, `${asked} pixels compared`);
  keepArtifact('charts', 'map-iberia.png', await svgToPng(svg));
  assert.ok(agree / asked >= 0.99, `the picture and the mask agree on ${agree} of ${asked} pixels`);

  // Coloured by value: the largest darkest and biggest; the one without a value grey; a legend in EUR.
  const circles = findAll(findAll(root, classed('locations'))[0]!, (e) => e.name === 'circle');
  const radius = circles.map((c) => Number(c.attrs.r));
  assert.equal(radius[2], Math.max(...radius), 'the 9M location is drawn largest');
  assert.ok(radius[5]! < radius[2]! && radius[5] === Math.min(...radius.filter((_, i) => i !== 4)), 'the 600k location is drawn smallest of those with a value');
  assert.notEqual(circles[5]!.attrs.fill, circles[2]!.attrs.fill);
  assert.equal(circles[4]!.attrs.fill, '#7f8c8d', 'the location without a value is grey');
  const legend = findAll(root, classed('legend'))[0]!;
  const words = findAll(legend, (e) => e.name === 'text').map((t) => t.text);
  assert.equal(words[0], 'Total value (EUR):');
  assert.ok(words.includes('no value') && words.some((w) => w.startsWith('under ')) && words.some((w) => w.endsWith(' or more')), words.join(' | '));
});

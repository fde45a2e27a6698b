// Land and sea as CLIMADA decides them (domain/land-mask.ts over Natural Earth's 1:10m countries merged
// into land, from world-atlas, read by src/land.ts): the grid index against a plain even-odd count over every edge,
// CLIMADA's own test points, points on both sides of coastlines in every basin, and the open-water
// points the country lookup used to call land.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CELL_DEG, landMask, type LandPolygons } from '../../../src/domain/land-mask.js';
import { naturalEarthLand } from '../../../src/land.js';
import { seededRandom } from '../../../src/domain/stats/random.js';

/** The even-odd rule over every edge of every ring: the answer the index must give, without the index. */
function bruteForce(polygons: LandPolygons, lat: number, lon: number): boolean {
  let inside = false;
  for (const ring of polygons.flat()) {
    for (let i = 0; i < ring.length; i++) {
      const [ax, ay] = ring[i]! as [number, number], [bx, by] = ring[(i + 1) % ring.length]! as [number, number];
      if ((ay > lat) !== (by > lat) && lon < ax + ((lat - ay) * (bx - ax)) / (by - ay)) inside = !inside;
    }
  }
  return inside;
}

const SOURCE = { dataset: 'made here', package: 'none', version: '0', file: 'none', sha256: '0' };

test('the grid index answers as the even-odd rule over every edge (hand-made polygons: a hole, vertices on cell corners, edges along cell sides, the antimeridian)', () => {
  // Shapes made up for this test: an island with a lake, a diamond whose vertices sit on grid corners,
  // a square whose sides run along cell sides, and land split at ±180° as Natural Earth splits it.
  const c = CELL_DEG;
  const polygons: LandPolygons = [
    [[[-80.3, 25.1], [-79.1, 25.05], [-78.7, 26.9], [-80.05, 27.3], [-80.3, 25.1]], [[-79.8, 25.9], [-79.3, 25.8], [-79.4, 26.4]]],
    [[[10, 10], [10 + 4 * c, 10 + 4 * c], [10, 10 + 8 * c], [10 - 4 * c, 10 + 4 * c]]],
    [[[20, -5], [20 + 3 * c, -5], [20 + 3 * c, -5 + 2 * c], [20, -5 + 2 * c]]],
    [[[179.2, -16.2], [180, -16.2], [180, -17.1], [179.3, -17.0]]],
    [[[-180, -16.2], [-179.6, -16.4], [-179.8, -17.1], [-180, -17.1]]],
  ];
  const mask = landMask(polygons, SOURCE);
  const rng = seededRandom(5);
  const boxes: [number, number, number, number][] = [[-81, 24.5, -78, 27.5], [9, 9.5, 11.5, 12.5], [19.5, -5.5, 21, -4], [179, -17.5, 180, -15.8], [-180, -17.5, -179.3, -15.8]];
  let land = 0;
  for (const [x0, y0, x1, y1] of boxes) {
    for (let k = 0; k < 4000; k++) {
      // Half the points on a grid line or a vertex's longitude/latitude, where ties are decided.
      let lon = x0 + rng.uniform() * (x1 - x0), lat = y0 + rng.uniform() * (y1 - y0);
      if (k % 4 === 1) lon = Math.round(lon / c) * c + (rng.uniform() < 0.5 ? 0 : 1e-12);
      if (k % 4 === 2) lat = Math.round(lat / c) * c;
      if (lon >= 180) lon -= 360;
      const got = mask.isLand(lat, lon);
      assert.equal(got, bruteForce(polygons, lat, lon), `(${lat}, ${lon})`);
      if (got) land++;
    }
  }
  assert.ok(land > 3000, `${land} points on land`);
  assert.equal(mask.isLand(-16.6, 179.6 - 360), mask.isLand(-16.6, 179.6), 'a longitude in any turn');
});

test('a ring stitched across the antimeridian, and one going round the south pole, answer as the same land cut at ±180° and closed along the pole (hand-made rings)', () => {
  // Made up for this test: an island drawn across 180° as world-atlas draws Fiji, and a coast round
  // the pole as it draws Antarctica; beside each, the same land as Natural Earth's shapefile cuts it.
  const stitched = landMask([
    [[[179.2, -16.2], [-179.6, -16.4], [-179.8, -17.1], [179.3, -17.0], [179.2, -16.2]]],
    [[[-170, -80], [-90, -78], [0, -81], [90, -79], [170, -80], [-170, -80]]],
  ], SOURCE);
  // Where the island's two edges across 180° meet it: 0.8 of 1.2° along the first, 0.2 of 0.9° along the second.
  const yA = -16.2 - 0.2 * (0.8 / 1.2), yB = -17.1 + 0.1 * (0.2 / 0.9);
  const cut = landMask([
    [[[179.2, -16.2], [180, yA], [180, yB], [179.3, -17.0]]],
    [[[-180, yA], [-179.6, -16.4], [-179.8, -17.1], [-180, yB]]],
    [[[-180, -80], [-170, -80], [-90, -78], [0, -81], [90, -79], [170, -80], [180, -80], [180, -90], [-180, -90]]],
  ], SOURCE);
  const rng = seededRandom(11);
  let land = 0;
  for (let k = 0; k < 20_000; k++) {
    const [lat, lon] = k % 2 === 0 ? [-17.3 + 1.3 * rng.uniform(), 178.9 + 2 * rng.uniform()] : [-89 + 15 * rng.uniform(), -180 + 360 * rng.uniform()];
    const got = stitched.isLand(lat, lon);
    assert.equal(got, cut.isLand(lat, lon), `(${lat}, ${lon})`);
    if (got) land++;
  }
  assert.ok(land > 5_000, `${land} points on land`);
});

const natural = naturalEarthLand();

test('the polygons read: Natural Earth 1:10m countries merged into land, from world-atlas, named with their sha256', () => {
  assert.equal(natural.source.package, 'world-atlas');
  assert.equal(natural.source.file, 'countries-10m.json');
  assert.match(natural.source.sha256, /^[0-9a-f]{64}$/);
  assert.equal(naturalEarthLand(), natural, 'read once per process');
});

test("CLIMADA's own test points: test_on_land_pass (climada/util/test/test_coordinates.py) and test_track_land_params (climada/hazard/test/test_tc_tracks.py)", () => {
  // Canary Islands: Tenerife on land, the sea west of La Palma, Morocco on land.
  assert.deepEqual([[28.203216, -16.567489], [28.555994, -18.55413], [28.860875, -9.532476]].map(([la, lo]) => natural.isLand(la!, lo!)), [true, false, true]);
  // One point over the Southern Ocean and two in Fiji, one each side of the antimeridian, in any turn of longitude.
  for (const shift of [0, 360, -360]) {
    assert.deepEqual([[-60, 170], [-16.56, 179.18], [-16.85, 180.05]].map(([la, lo]) => natural.isLand(la!, lo! + shift)), [false, true, true], `shifted ${shift}°`);
  }
});

test("CLIMADA's test_get_land_geometry_extent_pass: the westernmost land of its Canary Islands extent lies at -18.002186653°, here within 0.004° (world-atlas's 0.0036° quantization and this scan's 0.0002° step)", () => {
  let west = Infinity;
  for (let lat = 28.203216; lat <= 28.860875; lat += 0.0005) {
    for (let lon = -18.1; lon <= -17.9; lon += 0.0002) if (natural.isLand(lat, lon)) { west = Math.min(west, lon); break; }
  }
  assert.ok(Math.abs(west - -18.002186653) <= 0.004, `${west}`);
});

test('open water the country lookup called land is sea: off Miami, the Straits of Florida, the Bahamas banks, the Gulf', () => {
  const sea = [[25.76, -79.9], [24.0, -80.0], [25.0, -77.0], [26.44, -74.55], [24.8, -71.76], [23, -71], [29, -89], [28, -91]];
  for (const [lat, lon] of sea) assert.equal(natural.isLand(lat!, lon!), false, `(${lat}, ${lon})`);
});

// Places on both sides of a coastline in each basin (coordinates of the cities, and points offshore
// read off a map, each some kilometres from the nearest coast, beyond the polygons' few hundred metres of quantization).
const COASTS: Record<string, { land: [string, number, number][]; sea: [string, number, number][] }> = {
  'North Atlantic': {
    land: [['Miami (its airport: downtown, 25.77 -80.19, lies on the 1:10m shore itself)', 25.795, -80.29], ['inland Florida (Sebring)', 27.5, -81.44], ['Havana', 23.11, -82.37], ['Houston', 29.76, -95.37], ['San Juan', 18.4, -66.06], ['Nassau', 25.04, -77.35]],
    sea: [['Biscayne Bay (Key Biscayne lagoon)', 25.62, -80.22], ['off Havana', 23.3, -82.4], ['Gulf off Galveston', 29.0, -94.6], ['off San Juan', 18.7, -66.1]],
  },
  'Eastern Pacific': {
    land: [['Acapulco', 16.86, -99.88], ['Cabo San Lucas', 22.9, -109.92], ['Mazatlán', 23.24, -106.42], ['Honolulu', 21.31, -157.85]],
    sea: [['off Acapulco', 16.6, -99.9], ['Gulf of California', 24.5, -109.0], ['off Mazatlán', 23.0, -106.6], ['off Honolulu', 21.1, -157.9]],
  },
  'Western Pacific': {
    land: [['Quezon City', 14.68, 121.04], ['Hong Kong (Kowloon)', 22.33, 114.17], ['Naha', 26.21, 127.69], ['Shanghai', 31.23, 121.47], ['Tokyo', 35.68, 139.69]],
    sea: [['South China Sea west of Luzon', 15.0, 119.0], ['Philippine Sea', 13.0, 126.5], ['off Naha', 26.2, 127.45], ['East China Sea', 30.8, 122.8]],
  },
  'North Indian': {
    land: [['Mumbai', 19.08, 72.88], ['Chennai', 13.08, 80.25], ['Kolkata', 22.57, 88.36], ['Chittagong', 22.36, 91.81], ['Karachi', 24.86, 67.01]],
    sea: [['off Mumbai', 19.0, 72.5], ['off Chennai', 13.0, 80.6], ['Bay of Bengal', 20.5, 88.5], ['off Karachi', 24.6, 66.7]],
  },
  'Southern hemisphere': {
    land: [['Darwin airport', -12.41, 130.88], ['Townsville', -19.26, 146.8], ['Port Louis', -20.16, 57.5], ['Beira', -19.84, 34.85], ['Suva', -18.12, 178.45]],
    sea: [['Timor Sea', -11.0, 128.0], ['Coral Sea', -18.0, 149.0], ['off Mauritius', -20.5, 58.5], ['Mozambique Channel', -20.0, 36.5], ['off Suva', -18.3, 178.4]],
  },
};

for (const [basin, { land, sea }] of Object.entries(COASTS)) {
  test(`${basin}: places on land are land and the sea beside them is sea, by one rule`, () => {
    for (const [name, lat, lon] of land) assert.equal(natural.isLand(lat, lon), true, `${name} (${lat}, ${lon}) is land`);
    for (const [name, lat, lon] of sea) assert.equal(natural.isLand(lat, lon), false, `${name} (${lat}, ${lon}) is sea`);
  });
}

test('fast enough for every step of thousands of tracks: a million points in well under a few seconds', () => {
  const rng = seededRandom(9);
  const t = performance.now();
  let land = 0;
  for (let k = 0; k < 1_000_000; k++) if (natural.isLand(10 + 25 * rng.uniform(), -100 + 40 * rng.uniform())) land++;
  const ms = performance.now() - t;
  assert.ok(land > 0 && land < 1_000_000);
  assert.ok(ms < 5_000, `${ms.toFixed(0)} ms`);
});

// Natural Earth's land at 1:10m as CLIMADA's get_land_geometry makes it (climada/util/coordinates.py:
// the countries of ne_10m_admin_0_countries merged into one), from the installed world-atlas
// package: the `land` object of countries-10m.json, which world-atlas merges from the same countries
// (TopoJSON quantized to 1e5 steps a side, about 0.0036° of longitude and 0.0017° of latitude),
// turned into polygons by topojson-client. Its land-10m.json is drawn from Natural Earth's physical
// land instead, which is not the polygon set CLIMADA reads. Read and indexed once per process, when a
// run first asks, and handed to domain/land-mask.ts, which reads no file; the same polygons are the
// maps' basemap (render/basemap.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { landMask, type LandMask, type LandPolygons, type LandSource } from './domain/land-mask.js';

/** GeoJSON as topojson-client's feature() returns it, as far as it is read here. */
interface Geometry { readonly type: string; readonly coordinates: unknown }
type GeoJson = { readonly type: 'FeatureCollection'; readonly features: readonly { readonly geometry: Geometry | null }[] } | { readonly type: 'Feature'; readonly geometry: Geometry | null };

const require = createRequire(import.meta.url);
const FILE = 'countries-10m.json';
let read: { polygons: LandPolygons; source: LandSource } | undefined;
let land: LandMask | undefined;

/** The land polygons and where they came from, read once per process (the maps' basemap draws them too). */
export function naturalEarthLandPolygons(): { polygons: LandPolygons; source: LandSource } {
  if (!read) {
    const bytes = readFileSync(require.resolve(`world-atlas/${FILE}`));
    const { version } = JSON.parse(readFileSync(require.resolve('world-atlas/package.json'), 'utf8')) as { version: string };
    const topology = JSON.parse(bytes.toString('utf8')) as { objects: { land: unknown } };
    // The package ships no types: its one function read here is typed by what it is used for.
    const { feature } = require('topojson-client') as { feature(topology: unknown, object: unknown): GeoJson };
    read = {
      polygons: polygonsOf(feature(topology, topology.objects.land)),
      source: {
        dataset: 'Natural Earth 1:10m admin 0 countries merged into land (public domain), the land object',
        package: 'world-atlas',
        version,
        file: FILE,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
    };
  }
  return read;
}

export function naturalEarthLand(): LandMask {
  if (!land) {
    const { polygons, source } = naturalEarthLandPolygons();
    land = landMask(polygons, source);
  }
  return land;
}

/** The polygons of a GeoJSON feature or collection (MultiPolygons split into polygons). */
function polygonsOf(geo: GeoJson): LandPolygons {
  const features = geo.type === 'FeatureCollection' ? geo.features : [geo];
  return features.flatMap((f): LandPolygons => {
    const g = f.geometry;
    if (g?.type === 'Polygon') return [g.coordinates as LandPolygons[number]];
    if (g?.type === 'MultiPolygon') return g.coordinates as LandPolygons;
    return [];
  });
}

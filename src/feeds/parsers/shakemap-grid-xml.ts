// A ShakeMap 3.5 grid.xml: the event, the grid specification (nlon x nlat points from lon_min/lat_max,
// edges inclusive), the grid fields with their units as the file states them, and grid_data rows
// "LON LAT field...". Each row is placed by its own coordinates (so the row order is not trusted),
// and every grid point must be present exactly once. Pure: text in, one Raster per field out.
import type { Raster } from '../../domain/lab/lanes/flood/depth-map.js';

export interface ShakemapGridXml {
  readonly event: Readonly<Record<string, string>>;
  readonly shakemap: Readonly<Record<string, string>>;
  /** Field name (PGA, PSA03, STDPGA, ...) to its units as written (pctg, ln(pctg), cms, ...). */
  readonly units: Readonly<Record<string, string>>;
  readonly fields: Readonly<Record<string, Raster & { readonly values: Float32Array }>>;
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([A-Za-z_:]+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

function element(xml: string, name: string): Record<string, string> {
  const m = new RegExp(`<${name}\\s[^>]*>`).exec(xml);
  if (!m) throw new Error(`ShakeMap grid.xml: no <${name}>`);
  return attributes(m[0]);
}

export function parseShakemapGridXml(xml: string): ShakemapGridXml {
  const shakemap = element(xml, 'shakemap_grid');
  const event = element(xml, 'event');
  const spec = element(xml, 'grid_specification');
  const nlon = Number(spec.nlon);
  const nlat = Number(spec.nlat);
  const lonMin = Number(spec.lon_min);
  const lonMax = Number(spec.lon_max);
  const latMin = Number(spec.lat_min);
  const latMax = Number(spec.lat_max);
  if (![nlon, nlat].every((n) => Number.isInteger(n) && n > 1) || ![lonMin, lonMax, latMin, latMax].every(Number.isFinite)) {
    throw new Error('ShakeMap grid.xml: grid_specification needs nlon, nlat > 1 and the four bounds');
  }
  // The spacing from the bounds (the nominal spacing is rounded: 0.024938 for 4.788 / 192).
  const dlon = (lonMax - lonMin) / (nlon - 1);
  const dlat = (latMax - latMin) / (nlat - 1);
  const names: string[] = [];
  const units: Record<string, string> = {};
  for (const m of xml.matchAll(/<grid_field\s[^>]*>/g)) {
    const a = attributes(m[0]);
    const index = Number(a.index);
    if (!Number.isInteger(index) || index < 1 || !a.name) throw new Error('ShakeMap grid.xml: a grid_field needs an index and a name');
    names[index - 1] = a.name;
    units[a.name] = a.units ?? '';
  }
  if (names[0] !== 'LON' || names[1] !== 'LAT' || names.some((n) => n === undefined)) throw new Error('ShakeMap grid.xml: grid fields must be numbered from 1, LON and LAT first');
  const start = xml.indexOf('<grid_data>');
  const end = xml.indexOf('</grid_data>', start);
  if (start < 0 || end < 0) throw new Error('ShakeMap grid.xml: no <grid_data>');
  const cells = nlon * nlat;
  const columns = names.slice(2).map(() => new Float32Array(cells).fill(Number.NaN));
  const seen = new Uint8Array(cells);
  let rows = 0;
  for (const line of xml.slice(start + '<grid_data>'.length, end).split('\n')) {
    const t = line.trim();
    if (!t) continue;
    const v = t.split(/\s+/).map(Number);
    if (v.length !== names.length || !v.every(Number.isFinite)) throw new Error(`ShakeMap grid.xml: row ${rows + 1} does not hold ${names.length} numbers`);
    const col = Math.round((v[0]! - lonMin) / dlon);
    const row = Math.round((latMax - v[1]!) / dlat);
    if (col < 0 || col >= nlon || row < 0 || row >= nlat || Math.abs(lonMin + col * dlon - v[0]!) > dlon / 10 || Math.abs(latMax - row * dlat - v[1]!) > dlat / 10) {
      throw new Error(`ShakeMap grid.xml: row ${rows + 1} (${v[0]}, ${v[1]}) is not a point of the grid`);
    }
    const cell = row * nlon + col;
    if (seen[cell]) throw new Error(`ShakeMap grid.xml: grid point (${v[0]}, ${v[1]}) given twice`);
    seen[cell] = 1;
    for (let k = 0; k < columns.length; k++) columns[k]![cell] = v[k + 2]!;
    rows++;
  }
  if (rows !== cells) throw new Error(`ShakeMap grid.xml: ${rows} rows, expected ${cells} (${nlon} x ${nlat})`);
  const fields: Record<string, Raster & { values: Float32Array }> = {};
  names.slice(2).forEach((name, k) => {
    fields[name] = {
      width: nlon, height: nlat,
      origin_lon: lonMin - dlon / 2, origin_lat: latMax + dlat / 2,
      step_lon: dlon, step_lat: -dlat,
      nodata: null,
      values: columns[k]!,
    };
  });
  return { event, shakemap, units, fields };
}

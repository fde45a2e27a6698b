// A seismic source model in NRML 0.4 (OpenQuake's XML), as ESHM20 publishes its branches: areaSource
// (a gml:Polygon's posList of longitude latitude pairs, upper and lower seismogenic depth, the
// magnitude scaling relation, rupture aspect ratio, a truncated Gutenberg-Richter MFD, the nodal
// plane and hypocentral depth distributions) and simpleFaultSource (a gml:LineString trace, dip,
// upper and lower depth, scaling relation, aspect ratio, MFD, rake). The elements and attributes
// are those openquake/hazardlib/sourceconverter.py (SourceConverter.convert_areaSource,
// convert_simpleFaultSource, convert_mfdist) reads. Read strictly: any other source or MFD type, a
// missing element, a number that does not read, or a distribution whose probabilities do not sum
// to 1 (to 1e-6) is an error naming the source.
import type { AreaSource, SimpleFaultSource, SourceModel, TruncatedGr } from '../../domain/lab/lanes/earthquake/eshm20-sources.js';

const SOURCE = /<(areaSource|simpleFaultSource|pointSource|complexFaultSource|characteristicFaultSource|multiPointSource|nonParametricSeismicSource)\s([^>]*)>([\s\S]*?)<\/\1>/g;

function attr(attrs: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1];
}

function num(text: string | undefined, what: string, id: string): number {
  const v = text === undefined ? Number.NaN : Number(text.trim());
  if (text === undefined || text.trim() === '' || !Number.isFinite(v)) throw new Error(`source ${id}: ${what} ${JSON.stringify(text)} is not a number`);
  return v;
}

function element(body: string, name: string, id: string): string {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(body);
  if (!m) throw new Error(`source ${id}: no <${name}>`);
  return m[1]!.trim();
}

function positions(body: string, id: string): [number, number][] {
  const values = element(body, 'gml:posList', id).split(/\s+/).map((v) => num(v, 'posList value', id));
  if (values.length < 4 || values.length % 2 !== 0) throw new Error(`source ${id}: posList holds ${values.length} values, not longitude latitude pairs`);
  const out: [number, number][] = [];
  for (let i = 0; i < values.length; i += 2) out.push([values[i]!, values[i + 1]!]);
  return out;
}

function mfdOf(body: string, id: string): TruncatedGr {
  const m = /<truncGutenbergRichterMFD\s([^>]*)\/>/.exec(body);
  if (!m || /<(incrementalMFD|arbitraryMFD|YoungsCoppersmithMFD|multiMFD)\b/.test(body)) throw new Error(`source ${id}: the MFD is not a truncGutenbergRichterMFD`);
  const a = m[1]!;
  const mfd = { a: num(attr(a, 'aValue'), 'aValue', id), b: num(attr(a, 'bValue'), 'bValue', id), min_mag: num(attr(a, 'minMag'), 'minMag', id), max_mag: num(attr(a, 'maxMag'), 'maxMag', id) };
  if (!(mfd.b > 0) || !(mfd.max_mag > mfd.min_mag)) throw new Error(`source ${id}: truncated GR with b ${mfd.b}, minMag ${mfd.min_mag}, maxMag ${mfd.max_mag}`);
  return mfd;
}

function distribution<T extends object>(body: string, tag: string, id: string, read: (attrs: string) => T): (T & { probability: number })[] {
  const items = [...body.matchAll(new RegExp(`<${tag}\\s([^>]*)/>`, 'g'))].map((m) => ({ ...read(m[1]!), probability: num(attr(m[1]!, 'probability'), `${tag} probability`, id) }));
  const total = items.reduce((s, x) => s + x.probability, 0);
  if (items.length === 0 || Math.abs(total - 1) > 1e-6) throw new Error(`source ${id}: ${items.length} ${tag} entries weighing ${total}, not 1`);
  return items;
}

function common(attrs: string, body: string, id: string) {
  return {
    id, name: attr(attrs, 'name') ?? id, tectonic_region: attr(attrs, 'tectonicRegion') ?? '',
    msr: element(body, 'magScaleRel', id), aspect_ratio: num(element(body, 'ruptAspectRatio', id), 'ruptAspectRatio', id),
    upper_depth_km: num(element(body, 'upperSeismoDepth', id), 'upperSeismoDepth', id),
    lower_depth_km: num(element(body, 'lowerSeismoDepth', id), 'lowerSeismoDepth', id),
    mfd: mfdOf(body, id),
  };
}

function areaSource(attrs: string, body: string, id: string): AreaSource {
  return {
    kind: 'area', ...common(attrs, body, id),
    polygon: positions(element(body, 'gml:exterior', id), id),
    nodal_planes: distribution(body, 'nodalPlane', id, (a) => ({ strike: num(attr(a, 'strike'), 'strike', id), dip: num(attr(a, 'dip'), 'dip', id), rake: num(attr(a, 'rake'), 'rake', id) })),
    hypo_depths: distribution(body, 'hypoDepth', id, (a) => ({ depth_km: num(attr(a, 'depth'), 'hypoDepth depth', id) })),
  };
}

function simpleFault(attrs: string, body: string, id: string): SimpleFaultSource {
  return {
    kind: 'simple_fault', ...common(attrs, body, id),
    trace: positions(element(body, 'gml:LineString', id), id),
    dip: num(element(body, 'dip', id), 'dip', id),
    rake: num(element(body, 'rake', id), 'rake', id),
  };
}

export function parseNrmlSourceModel(xml: string): SourceModel {
  if (!/xmlns="http:\/\/openquake\.org\/xmlns\/nrml\/0\.4"/.test(xml)) throw new Error('not an NRML 0.4 document');
  const name = /<sourceModel\s+name="([^"]*)"/.exec(xml)?.[1];
  if (name === undefined) throw new Error('no <sourceModel name="...">');
  const area: AreaSource[] = [];
  const faults: SimpleFaultSource[] = [];
  const ids = new Set<string>();
  for (const m of xml.matchAll(SOURCE)) {
    const [, type, attrs, body] = m as unknown as [string, string, string, string];
    const id = attr(attrs, 'id');
    if (!id) throw new Error(`a ${type} without an id`);
    if (ids.has(id)) throw new Error(`source ${id} appears twice`);
    ids.add(id);
    if (type === 'areaSource') area.push(areaSource(attrs, body, id));
    else if (type === 'simpleFaultSource') faults.push(simpleFault(attrs, body, id));
    else throw new Error(`source ${id}: ${type} is not read (area and simple-fault sources only)`);
  }
  if (ids.size === 0) throw new Error(`source model ${name}: no source`);
  return { name, area, faults };
}

// USGS ShakeMap station data and event files, as published: the ShakeMap 4 stationlist.json (a
// GeoJSON FeatureCollection, one feature per station or DYFI cell, each with channels of
// amplitudes: name, value, units, flag, ln_sigma), the ShakeMap 3.5 stationlist.xml (<station> with
// <comp> channels of <pga>, <pgv>, <psa03>, <psa10>, <psa30> values, percent of g and cm/s by the
// format's convention), the ShakeMap 4 event.xml (the origin), rupture.json (a finite-fault
// outline: each ring of each polygon runs along a strand's top edge, then back along its bottom
// edge) and an
// ANSS QuakeML moment tensor's principal axes. Pure: text in, the lane's plain records out.
import type { Corner, PrincipalAxis, RupturePlaneOutline, StationAmplitude, StationRecord } from '../../domain/lab/lanes/earthquake/station-data.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function num(v: unknown, what: string): number {
  const x = typeof v === 'string' ? Number(v) : v;
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error(`${what} is not a number (${JSON.stringify(v)})`);
  return x;
}
const numOrNull = (v: unknown): number | null => {
  const x = typeof v === 'string' ? Number(v) : v;
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
};

/** A ShakeMap 4 stationlist.json: every feature, seismic stations and DYFI cells alike. */
export function parseStationlistJson(text: string): StationRecord[] {
  const doc: unknown = JSON.parse(text);
  if (!isObject(doc) || !Array.isArray(doc.features)) throw new Error('stationlist.json: not a FeatureCollection with features');
  return doc.features.map((f: unknown, i: number) => {
    if (!isObject(f) || !isObject(f.properties) || !isObject(f.geometry) || !Array.isArray(f.geometry.coordinates)) throw new Error(`stationlist.json: feature ${i} has no properties or Point geometry`);
    const p = f.properties;
    const [lon, lat] = f.geometry.coordinates as unknown[];
    const channels = Array.isArray(p.channels) ? p.channels : [];
    return {
      id: String(f.id ?? `${p.network}.${p.code}`),
      name: String(p.name ?? ''),
      lat: num(lat, `stationlist.json: feature ${i} latitude`),
      lon: num(lon, `stationlist.json: feature ${i} longitude`),
      vs30: numOrNull(p.vs30),
      type: String(p.station_type ?? ''),
      channels: channels.map((c: unknown) => {
        if (!isObject(c) || !Array.isArray(c.amplitudes)) throw new Error(`stationlist.json: feature ${i} has a channel without amplitudes`);
        return {
          name: String(c.name ?? ''),
          amplitudes: c.amplitudes.map((a: unknown): StationAmplitude => {
            if (!isObject(a)) throw new Error(`stationlist.json: feature ${i} has an amplitude that is not an object`);
            return { name: String(a.name).toLowerCase(), value: numOrNull(a.value), unit: String(a.units ?? ''), flag: String(a.flag ?? ''), ln_sigma: numOrNull(a.ln_sigma) ?? 0 };
          }),
        };
      }),
    };
  });
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([A-Za-z_:]+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/** ShakeMap 3.5 element names and what they measure (the format's units: percent of g, cm/s for PGV). */
const XML_AMPLITUDES: Readonly<Record<string, { name: string; unit: string }>> = {
  pga: { name: 'pga', unit: '%g' }, acc: { name: 'pga', unit: '%g' },
  pgv: { name: 'pgv', unit: 'cm/s' }, vel: { name: 'pgv', unit: 'cm/s' },
  psa03: { name: 'sa(0.3)', unit: '%g' }, psa10: { name: 'sa(1.0)', unit: '%g' }, psa30: { name: 'sa(3.0)', unit: '%g' },
};

/** A ShakeMap 3.5 stationlist.xml: every <station> (instrumental: the format holds no DYFI cells). */
export function parseStationlistXml(xml: string): StationRecord[] {
  const out: StationRecord[] = [];
  for (const m of xml.matchAll(/<station\s([^>]*)>([\s\S]*?)<\/station>/g)) {
    const a = attributes(m[1]!);
    const channels = [...m[2]!.matchAll(/<comp\s([^>]*)>([\s\S]*?)<\/comp>/g)].map((c) => ({
      name: attributes(c[1]!).name ?? '',
      amplitudes: [...c[2]!.matchAll(/<(\w+)\s([^>]*?)\/>/g)].flatMap((e) => {
        const kind = XML_AMPLITUDES[e[1]!];
        if (!kind) return [];
        const v = attributes(e[2]!);
        return [{ name: kind.name, value: numOrNull(v.value), unit: kind.unit, flag: v.flag ?? '', ln_sigma: 0 }];
      }),
    }));
    out.push({
      id: a.code ?? '', name: a.name ?? '',
      lat: num(a.lat, `stationlist.xml: station ${a.code} lat`), lon: num(a.lon, `stationlist.xml: station ${a.code} lon`),
      vs30: null, type: 'seismic', channels,
    });
  }
  if (out.length === 0) throw new Error('stationlist.xml: no <station> elements');
  return out;
}

/** A ShakeMap 4 event.xml's origin. */
export function parseEventXml(xml: string): { id: string; magnitude: number; lat: number; lon: number; depth_km: number } {
  const m = /<earthquake\s([^>]*)\/?>/.exec(xml);
  if (!m) throw new Error('event.xml: no <earthquake>');
  const a = attributes(m[1]!);
  return { id: a.id ?? '', magnitude: num(a.mag, 'event.xml mag'), lat: num(a.lat, 'event.xml lat'), lon: num(a.lon, 'event.xml lon'), depth_km: num(a.depth, 'event.xml depth') };
}

/** A rupture.json: its metadata and each polygon's quadrilaterals (top edge first, then the bottom edge back). */
export function parseRuptureJson(text: string): { metadata: Record<string, unknown>; planes: RupturePlaneOutline[] } {
  const doc: unknown = JSON.parse(text);
  if (!isObject(doc) || !Array.isArray(doc.features)) throw new Error('rupture.json: not a FeatureCollection');
  const planes: RupturePlaneOutline[] = [];
  for (const f of doc.features) {
    const g = isObject(f) && isObject(f.geometry) ? f.geometry : undefined;
    if (!g || g.type !== 'MultiPolygon' || !Array.isArray(g.coordinates)) continue;
    // Every ring is an outline: ShakeMap writes a second fault strand as a polygon's second ring.
    for (const ringCoordinates of (g.coordinates as unknown[][][][]).flat()) {
      const ring = (ringCoordinates as unknown as unknown[][]).map((p, i): Corner => ({ lon: num(p[0], `rupture.json vertex ${i}`), lat: num(p[1], `rupture.json vertex ${i}`), depth_km: num(p[2], `rupture.json vertex ${i} depth`) }));
      const n = (ring.length - 1) / 2;
      const [first, last] = [ring[0]!, ring[ring.length - 1]!];
      if (!Number.isInteger(n) || n < 2 || first.lon !== last.lon || first.lat !== last.lat || first.depth_km !== last.depth_km) {
        throw new Error(`rupture.json: a ring of ${ring.length} vertices is not a closed top-then-bottom outline`);
      }
      const top = ring.slice(0, n);
      const bottom = ring.slice(n, 2 * n).reverse();
      for (let i = 0; i + 1 < n; i++) planes.push({ top: [top[i]!, top[i + 1]!], bottom: [bottom[i]!, bottom[i + 1]!] });
    }
  }
  if (planes.length === 0) throw new Error('rupture.json: no MultiPolygon rupture outline');
  return { metadata: isObject(doc.metadata) ? doc.metadata : {}, planes };
}

/** An ANSS QuakeML moment tensor's principal axes (azimuth and plunge, degrees). */
export function parseMomentTensorAxes(xml: string): { p: PrincipalAxis; t: PrincipalAxis; n: PrincipalAxis } {
  const axis = (name: string): PrincipalAxis => {
    const m = new RegExp(`<${name}>\\s*<azimuth>\\s*<value>([^<]+)</value>[\\s\\S]*?</azimuth>\\s*<plunge>\\s*<value>([^<]+)</value>`).exec(xml);
    if (!m) throw new Error(`moment tensor: no ${name}`);
    return { azimuth: num(m[1], `${name} azimuth`), plunge: num(m[2], `${name} plunge`) };
  };
  return { p: axis('pAxis'), t: axis('tAxis'), n: axis('nAxis') };
}

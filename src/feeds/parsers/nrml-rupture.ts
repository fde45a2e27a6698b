// An OpenQuake rupture model in NRML 0.4/0.5 holding one <singlePlaneRupture>: magnitude, rake,
// hypocentre and a planar surface (strike, dip and its four corners). Other rupture kinds are an error
// naming them. Pure: text in, plain numbers out.

export interface PlaneCorner {
  readonly lon: number;
  readonly lat: number;
  readonly depth_km: number;
}

export interface NrmlPlaneRupture {
  readonly magnitude: number;
  readonly rake: number;
  readonly hypocentre: { readonly lat: number; readonly lon: number; readonly depth_km: number };
  readonly strike: number;
  readonly dip: number;
  readonly corners: { readonly topLeft: PlaneCorner; readonly topRight: PlaneCorner; readonly bottomLeft: PlaneCorner; readonly bottomRight: PlaneCorner };
}

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([A-Za-z_]+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

function number(v: string | undefined, what: string): number {
  const n = Number(v);
  if (v === undefined || v.trim() === '' || !Number.isFinite(n)) throw new Error(`NRML rupture: ${what} is not a number`);
  return n;
}

export function parseNrmlPlaneRupture(xml: string): NrmlPlaneRupture {
  const kind = /<(\w+Rupture)\b/.exec(xml)?.[1];
  if (kind !== 'singlePlaneRupture') throw new Error(`NRML rupture: ${kind ?? 'no rupture'} is not a singlePlaneRupture`);
  const text = (tag: string) => number(new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1], tag);
  const element = (tag: string) => {
    const m = new RegExp(`<${tag}\\b[^>]*>`).exec(xml);
    if (!m) throw new Error(`NRML rupture: no <${tag}>`);
    return attrs(m[0]);
  };
  const corner = (tag: string): PlaneCorner => {
    const a = element(tag);
    return { lon: number(a.lon, `${tag} lon`), lat: number(a.lat, `${tag} lat`), depth_km: number(a.depth, `${tag} depth`) };
  };
  const hypo = element('hypocenter');
  const surface = element('planarSurface');
  return {
    magnitude: text('magnitude'),
    rake: text('rake'),
    hypocentre: { lat: number(hypo.lat, 'hypocenter lat'), lon: number(hypo.lon, 'hypocenter lon'), depth_km: number(hypo.depth, 'hypocenter depth') },
    strike: number(surface.strike, 'strike'),
    dip: number(surface.dip, 'dip'),
    corners: { topLeft: corner('topLeft'), topRight: corner('topRight'), bottomLeft: corner('bottomLeft'), bottomRight: corner('bottomRight') },
  };
}

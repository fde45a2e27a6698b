// The tropical-cyclone lanes' impact functions (SPEC: Model lab, impact_function): Emanuel's (2011)
// sigmoid of wind speed, with the US calibration or the regional calibrations of Eberenz et al.
// (2021), built on CLIMADA's intensity grid (0 to 120 m/s every 5 m/s, PAA 1):
//   v_n = max(V - v_thresh, 0) / (v_half - v_thresh);  MDD = scale · v_n³ / (1 + v_n³)
// "auto" gives a place in the United States the US curve and any other place its region's TDR1.0
// curve, by the country of the point (offline lookup, territories apart: Puerto Rico is in the
// Caribbean region); a place in no country, or in a country of no calibrated region, takes the
// global calibration (CLIMADA's "rest of the world").
import type { ImpactFunction } from '../../engine/impact.js';

export const EMANUEL_V_THRESH = 25.7;
export const EMANUEL_US_V_HALF = 74.7;
/** CLIMADA's intensity grid for these curves, m/s. */
export const CURVE_INTENSITIES: readonly number[] = Array.from({ length: 25 }, (_, i) => 5 * i);

/** The named curves (ids are the documented identifiers), and auto. */
export const IMPACT_FUNCTION_CHOICES = ['auto', 'emanuel-2011-usa', 'eberenz-2021-tdr1.0', 'eberenz-2021-tdr1.5', 'eberenz-2021-rmsf'] as const;
export type ImpactFunctionChoice = (typeof IMPACT_FUNCTION_CHOICES)[number];

/** The calibration approach of each regional set (the columns of the pinned tables). */
const APPROACH: Readonly<Record<string, string>> = {
  'eberenz-2021-tdr1.0': 'TDR1.0', 'eberenz-2021-tdr1.5': 'TDR1.5', 'eberenz-2021-rmsf': 'RMSF',
};

/** CLIMADA's function id per calibration region; the US curve of "auto" takes 11. */
const REGION_IMPF_ID: Readonly<Record<string, number>> = { NA1: 1, NA2: 2, NI: 3, OC: 4, SI: 5, WP1: 6, WP2: 7, WP3: 8, WP4: 9, ROW: 10 };
const US_IMPF_ID = 11;

export interface Calibration {
  v_half: Record<string, Record<string, number>>;
  region_of_country: Record<string, string>;
}

/** Emanuel's sigmoid on CLIMADA's grid. */
export function emanuelCurve(id: number, vHalf: number, vThresh = EMANUEL_V_THRESH, scale = 1): ImpactFunction {
  if (!(vHalf > vThresh) || vThresh < 0) throw new Error(`impact function ${id}: v_half ${vHalf} must exceed v_thresh ${vThresh} >= 0`);
  const mdd = CURVE_INTENSITIES.map((v) => {
    const vn = Math.max(v - vThresh, 0) / (vHalf - vThresh);
    return (scale * vn ** 3) / (1 + vn ** 3);
  });
  return { id, intensity: CURVE_INTENSITIES, mdd, paa: CURVE_INTENSITIES.map(() => 1) };
}


export interface CurveUse {
  impf_id: number;
  curve: Exclude<ImpactFunctionChoice, 'auto'>;
  /** Calibration region (NA1 … WP4, ROW) for regional curves; null for the US curve. */
  region: string | null;
  v_thresh: number;
  v_half: number;
  scale: number;
  places: number;
}

/** The impact functions for places and the function each place uses. */
export function impactFunctionsFor(choice: ImpactFunctionChoice, countries: readonly (string | null)[], calibration: Calibration):
  { functions: ImpactFunction[]; impf: Int32Array; curves: CurveUse[] } {
  const uses = new Map<number, CurveUse>();
  const impf = new Int32Array(countries.length);
  const use = (curve: CurveUse['curve'], region: string | null): number => {
    const id = region === null ? US_IMPF_ID : REGION_IMPF_ID[region]!;
    let u = uses.get(id);
    if (!u) {
      const vHalf = region === null ? EMANUEL_US_V_HALF : regionalVHalf(calibration, APPROACH[curve]!, region);
      u = { impf_id: id, curve, region, v_thresh: EMANUEL_V_THRESH, v_half: vHalf, scale: 1, places: 0 };
      uses.set(id, u);
    }
    u.places++;
    return id;
  };
  countries.forEach((c, i) => {
    if (choice === 'emanuel-2011-usa' || (choice === 'auto' && c === 'USA')) impf[i] = use('emanuel-2011-usa', null);
    else {
      const curve = choice === 'auto' ? 'eberenz-2021-tdr1.0' : choice;
      const region = (c !== null ? calibration.region_of_country[c] : undefined) ?? 'ROW';
      impf[i] = use(curve, REGION_IMPF_ID[region] === undefined ? 'ROW' : region);
    }
  });
  const curves = [...uses.values()].sort((a, b) => a.impf_id - b.impf_id);
  return { functions: curves.map((u) => emanuelCurve(u.impf_id, u.v_half, u.v_thresh, u.scale)), impf, curves };
}

/** A region's v_half under an approach; the rest of the world takes the global calibration (GLB). */
function regionalVHalf(calibration: Calibration, approach: string, region: string): number {
  const table = calibration.v_half[approach];
  const v = table?.[region === 'ROW' ? 'GLB' : region];
  if (v === undefined) throw new Error(`no calibrated v_half for ${region} under ${approach}`);
  return v;
}

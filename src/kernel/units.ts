// Units of measure: every unit the service reads or states, as a quantity of its dimension's base
// unit (mm, m/s, m3/s, customers). Exact where the definition is exact.

export type Dimension = 'length' | 'speed' | 'discharge' | 'count';

/** The unit each dimension is reckoned in. */
export const BASE_UNITS: Readonly<Record<Dimension, string>> = { length: 'mm', speed: 'm/s', discharge: 'm3/s', count: 'customers' };

/** 1 kt = 1852 m / 3600 s exactly (DOMAIN.md gives 0.514444 m/s). */
export const METRES_PER_SECOND_PER_KNOT = 1852 / 3600;
/** 1 ft³/s = 0.028316846592 m³/s exactly (international foot). */
export const CUBIC_METRES_PER_CUBIC_FOOT = 0.028316846592;
/** 1 in = 25.4 mm exactly. */
export const MILLIMETRES_PER_INCH = 25.4;
/** 1 mph = 0.44704 m/s exactly. */
export const METRES_PER_SECOND_PER_MPH = 0.44704;

export interface UnitMeasure {
  readonly dimension: Dimension;
  /** One of this unit in the dimension's base unit. */
  readonly base: number;
}

/** Units an index or a payout level is stated in (the structure vocabulary's unit names). */
export const STATED_UNITS: Readonly<Record<string, UnitMeasure>> = {
  mm: { dimension: 'length', base: 1 },
  in: { dimension: 'length', base: MILLIMETRES_PER_INCH },
  'm/s': { dimension: 'speed', base: 1 },
  kt: { dimension: 'speed', base: METRES_PER_SECOND_PER_KNOT },
  mph: { dimension: 'speed', base: METRES_PER_SECOND_PER_MPH },
  'km/h': { dimension: 'speed', base: 1 / 3.6 },
  'm3/s': { dimension: 'discharge', base: 1 },
  'ft3/s': { dimension: 'discharge', base: CUBIC_METRES_PER_CUBIC_FOOT },
  customers: { dimension: 'count', base: 1 },
};

/** Native series units, as the feed parsers name them, and the stated unit each reads as by default. */
export const NATIVE_UNITS: Readonly<Record<string, UnitMeasure & { readonly whole: string }>> = {
  'tenths of mm': { dimension: 'length', base: 0.1, whole: 'mm' },
  mm: { dimension: 'length', base: 1, whole: 'mm' },
  inches: { dimension: 'length', base: MILLIMETRES_PER_INCH, whole: 'in' },
  'hundredths of inches': { dimension: 'length', base: MILLIMETRES_PER_INCH / 100, whole: 'in' },
  'tenths of m/s': { dimension: 'speed', base: 0.1, whole: 'm/s' },
  'm/s': { dimension: 'speed', base: 1, whole: 'm/s' },
  mph: { dimension: 'speed', base: METRES_PER_SECOND_PER_MPH, whole: 'mph' },
  'ft3/s': { dimension: 'discharge', base: CUBIC_METRES_PER_CUBIC_FOOT, whole: 'ft3/s' },
  'm3/s': { dimension: 'discharge', base: 1, whole: 'm3/s' },
  customers: { dimension: 'count', base: 1, whole: 'customers' },
};

/** A native unit's measure, or undefined when the service does not know it. */
export function nativeUnit(name: string): (UnitMeasure & { readonly whole: string }) | undefined {
  return Object.hasOwn(NATIVE_UNITS, name) ? NATIVE_UNITS[name] : undefined;
}

/** A stated unit's measure, or undefined when it is not one. */
export function statedUnit(name: string): UnitMeasure | undefined {
  return Object.hasOwn(STATED_UNITS, name) ? STATED_UNITS[name] : undefined;
}

/** Factor and base unit of a native unit (value in base unit = native × factor), or null when unknown. */
export function baseConversion(name: string): { factor: number; unit: string } | null {
  const n = nativeUnit(name);
  return n ? { factor: n.base, unit: BASE_UNITS[n.dimension] } : null;
}

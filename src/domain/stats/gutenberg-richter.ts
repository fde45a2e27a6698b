// Gutenberg–Richter frequency–magnitude fit for an earthquake box: log10 N(>=M) = a − b·M.
//
// Magnitudes are first binned to ΔM (Utsu's correction assumes binned data): bin k is centred on
// k·ΔM and holds [k·ΔM − ΔM/2, k·ΔM + ΔM/2), halves rounding up. Bins are handled as integers so
// that comparisons with Mc never suffer from decimal rounding.

export const DEFAULT_MAGNITUDE_BIN = 0.1;

/** Shi & Bolt's constant, 2.30 as published (≈ ln 10). */
const SHI_BOLT_FACTOR = 2.3;

/** Index of the ΔM bin holding magnitude m (the 1e-9 absorbs binary rounding of decimal inputs). */
export function magnitudeBinIndex(m: number, binWidth: number): number {
  return Math.floor(m / binWidth + 0.5 + 1e-9);
}

/** Centre magnitude of bin k, rounded to 10 decimals to drop binary noise (4.5, not 4.500000000000001). */
function binCentre(k: number, binWidth: number): number {
  return Number((k * binWidth).toFixed(10));
}

function checkBinWidth(binWidth: number): void {
  if (!(binWidth > 0) || !Number.isFinite(binWidth)) throw new RangeError(`bin width must be positive, got ${binWidth}`);
}

/** The stated tie-break of maximum curvature, quoted in every answer that reports Mc. */
export const MC_TIE_BREAK =
  'when several magnitude bins hold the same largest count, Mc is the highest of them (the more conservative completeness); ' +
  'the choice depends only on the bin counts, never on the order of the catalog';

/**
 * Completeness magnitude by maximum curvature (Wiemer & Wyss 2000): the centre of the ΔM bin holding
 * the most events in the non-cumulative frequency–magnitude distribution. Ties go to the larger
 * magnitude, the more conservative completeness. (No correction term is added.)
 */
export function completenessByMaxCurvature(magnitudes: readonly number[], binWidth = DEFAULT_MAGNITUDE_BIN): number {
  checkBinWidth(binWidth);
  if (magnitudes.length === 0) throw new RangeError('maximum curvature needs at least one magnitude');
  const counts = new Map<number, number>();
  for (const m of magnitudes) {
    const k = magnitudeBinIndex(m, binWidth);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  let bestBin = 0;
  let bestCount = -1;
  for (const [k, count] of counts) {
    if (count > bestCount || (count === bestCount && k > bestBin)) {
      bestBin = k;
      bestCount = count;
    }
  }
  return binCentre(bestBin, binWidth);
}

export interface BValueEstimate {
  /** Aki (1965) maximum-likelihood b with Utsu's binning correction. */
  readonly b: number;
  /** Events with binned M >= Mc. */
  readonly n: number;
  /** Mean of their binned magnitudes. */
  readonly meanMagnitude: number;
  /** b/√N (Aki 1965). */
  readonly standardErrorAki: number;
  /** 2.30·b²·sqrt(Σ(M_i − M̄)² / (N(N − 1))) (Shi & Bolt 1982). */
  readonly standardErrorShiBolt: number;
}

/**
 * b-value over the events with binned magnitude >= Mc: b = log10(e) / (M̄ − (Mc − ΔM/2))
 * (Aki 1965; Utsu 1966 binning correction). Mc should lie on the ΔM grid. Needs N >= 2.
 */
export function estimateBValue(
  magnitudes: readonly number[],
  mc: number,
  binWidth = DEFAULT_MAGNITUDE_BIN,
): BValueEstimate {
  checkBinWidth(binWidth);
  const mcBin = magnitudeBinIndex(mc, binWidth);
  const bins = magnitudes.map((m) => magnitudeBinIndex(m, binWidth)).filter((k) => k >= mcBin);
  const n = bins.length;
  if (n < 2) throw new RangeError(`b-value needs at least two events at or above Mc ${mc}, found ${n}`);
  // Work in bin units relative to Mc, then scale: keeps the sums exact for decimal magnitudes.
  const meanOffsetBins = bins.reduce((sum, k) => sum + (k - mcBin), 0) / n;
  const meanMagnitude = binCentre(mcBin, binWidth) + meanOffsetBins * binWidth;
  const b = Math.LOG10E / ((meanOffsetBins + 0.5) * binWidth);
  const sumSquares = bins.reduce((sum, k) => sum + (k - mcBin - meanOffsetBins) ** 2, 0) * binWidth ** 2;
  return {
    b,
    n,
    meanMagnitude,
    standardErrorAki: b / Math.sqrt(n),
    standardErrorShiBolt: SHI_BOLT_FACTOR * b * b * Math.sqrt(sumSquares / (n * (n - 1))),
  };
}

export interface GutenbergRichterOptions {
  /** T: the span of the catalog in years, for annual rates. */
  readonly years: number;
  /** ΔM, default 0.1. */
  readonly binWidth?: number;
  /** The catalog's stated floor: Mc = max(Mc by maximum curvature, floor snapped up to the ΔM grid). */
  readonly floorMagnitude?: number;
}

export interface GutenbergRichterFit extends BValueEstimate {
  readonly binWidth: number;
  readonly years: number;
  readonly mcMaxCurvature: number;
  readonly floorMagnitude: number | null;
  /** The completeness magnitude used: max(mcMaxCurvature, floor). */
  readonly mc: number;
  /** a for the whole catalog span: log10 N(>=Mc) = a − b·Mc with N the count over T years. */
  readonly aCount: number;
  /** a per year, the one the annual rate uses: log10 (N(>=Mc)/T) = a − b·Mc. */
  readonly aAnnual: number;
  /** N(>=Mc)/T. */
  readonly annualRateAtMc: number;
}

/** Mc, b (with both standard errors) and a for a box's magnitudes over T years. */
export function fitGutenbergRichter(magnitudes: readonly number[], options: GutenbergRichterOptions): GutenbergRichterFit {
  const binWidth = options.binWidth ?? DEFAULT_MAGNITUDE_BIN;
  checkBinWidth(binWidth);
  if (!(options.years > 0)) throw new RangeError(`catalog span must be positive years, got ${options.years}`);
  const mcMaxCurvature = completenessByMaxCurvature(magnitudes, binWidth);
  const floor = options.floorMagnitude ?? null;
  const floorBin = floor === null ? -Infinity : Math.ceil(floor / binWidth - 1e-9);
  const mc = binCentre(Math.max(magnitudeBinIndex(mcMaxCurvature, binWidth), floorBin), binWidth);
  const estimate = estimateBValue(magnitudes, mc, binWidth);
  const annualRateAtMc = estimate.n / options.years;
  return {
    ...estimate,
    binWidth,
    years: options.years,
    mcMaxCurvature,
    floorMagnitude: floor,
    mc,
    aCount: Math.log10(estimate.n) + estimate.b * mc,
    aAnnual: Math.log10(annualRateAtMc) + estimate.b * mc,
    annualRateAtMc,
  };
}

/**
 * Annual rate of events with M >= m in the box: λ(m) = (N(>=Mc)/T)·10^(−b(m − Mc)) (DOMAIN.md).
 * For m < Mc this is the law's extrapolation, not a rate the (incomplete) catalog observed.
 */
export function annualExceedanceRate(fit: Pick<GutenbergRichterFit, 'annualRateAtMc' | 'b' | 'mc'>, m: number): number {
  return fit.annualRateAtMc * 10 ** (-fit.b * (m - fit.mc));
}

// The damage-curve sensitivity of the windstorm lane: every damage ratio scaled by a factor and
// capped at 1, per item, before the allocation of perils on a coverage and before any financial
// terms. Factors 0.9 and 1.1 (damage curves 10% lower and 10% higher).
//
//   - With samples, each sampled damage ratio d becomes min(1, f·d), with the very same random
//     numbers as the base run (common random numbers), so the difference is the curve's alone.
//   - With samples 0 (analytical mean), an item's damage ratio becomes E[min(1, f·D)], the
//     expectation under the framework's own distribution of D inside each damage bin: a point for a
//     zero-width bin, uniform when the bin's interpolation value is its midpoint (linear
//     interpolation), and the density of the framework's quadratic interpolation otherwise.
//     For f <= 1 and a bin below the cap this is f times the bin's interpolation value.

import type { DamageBins } from './model-data.js';
import { compactMetrics, type EventLoss, type Occurrence, type SensitivityBlock } from './metrics.js';

export const SENSITIVITY_FACTORS = [0.9, 1.1] as const;

export const SENSITIVITY_METHOD = 'Every damage ratio multiplied by the factor and capped at 1, per item before the perils on a coverage are summed and capped and before financial terms; sampled runs reuse the base run\'s random numbers, analytical runs take the expectation of min(1, factor x damage ratio) over each damage bin as the framework spreads it (uniform for linear bins).';

/** Interpolation mode of a damage bin as the framework's get_gul decides it. */
export function binMode(from: number, to: number, interpolation: number): 'point' | 'linear' | 'quadratic' {
  const w = to - from;
  if (w === 0) return 'point';
  const x = (interpolation - from) / w;
  return Math.abs(x - 0.5) <= 5e-6 ? 'linear' : 'quadratic';
}

/**
 * E[min(1, f·D)] for D spread over one damage bin as the framework interpolates it. Within a bin of
 * width w starting at `from`, with x = (interpolation - from)/w, the offset y = D - from has the
 * density α + βy, α = 2(2 - 3x)/w, β = 6(2x - 1)/w² (x = 1/2: uniform).
 */
export function scaledBinMean(from: number, to: number, interpolation: number, f: number): number {
  const mode = binMode(from, to, interpolation);
  if (mode === 'point') return Math.min(1, f * to);
  if (f * to <= 1) return f * interpolation;
  if (f * from >= 1) return 1;
  const w = to - from;
  const x = mode === 'linear' ? 0.5 : (interpolation - from) / w;
  const alpha = (2 * (2 - 3 * x)) / w;
  const beta = (6 * (2 * x - 1)) / (w * w);
  const c = 1 / f - from; // offset at which f·D reaches 1, inside (0, w)
  const cdf = alpha * c + (beta * c * c) / 2;
  const below = from * cdf + (alpha * c * c) / 2 + (beta * c * c * c) / 3;
  return f * below + (1 - cdf);
}

/** Table [v * count + b]: bin b's mean damage ratio under factor v (factor 1: the interpolation value). */
export function scaledBinMeans(bins: DamageBins, factors: readonly number[]): Float64Array {
  const out = new Float64Array(factors.length * bins.count);
  factors.forEach((f, v) => {
    for (let b = 0; b < bins.count; b++) {
      out[v * bins.count + b] = f === 1 ? bins.interpolation[b]! : scaledBinMean(bins.from[b]!, bins.to[b]!, bins.interpolation[b]!, f);
    }
  });
  return out;
}

/** The sensitivity block of one perspective from its event losses under each factor. */
export function sensitivityBlock(periods: number, occurrences: readonly Occurrence[], baseAal: number,
  variants: { factor: number; eventLosses: readonly EventLoss[] }[], returnPeriods?: readonly number[]): SensitivityBlock {
  return {
    method: SENSITIVITY_METHOD,
    base_aal: baseAal,
    variants: variants.map(({ factor, eventLosses }) => {
      const m = compactMetrics(periods, eventLosses, occurrences, returnPeriods);
      return {
        label: `damage ratios x${factor}`,
        factor,
        ...m,
        aal_change: baseAal > 0 ? (m.average_annual_loss.mean - baseAal) / baseAal : null,
      };
    }),
  };
}

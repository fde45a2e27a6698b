// The fitted view of a structure's annual payout over any trigger design: the design says which
// view fits its records and hands over what that view reads (fittedSample), over the years the
// burn counts; the view of that method is fitted here.

import { DESIGNS } from '../triggers/index.js';
import { empiricalView } from './empirical-view.js';
import { extremeValueView } from './extreme-value-view.js';
import { coveredYears, type FittedView, type FittedViewInput } from './fitted-view.js';
import { gutenbergRichterView } from './gutenberg-richter-view.js';

export function fittedView(input: FittedViewInput): FittedView {
  const { structure: s, artifact, data } = input;
  const counted = new Set(coveredYears(artifact).map((c) => c.year.year));
  const found = DESIGNS[s.design].fittedSample(s, data, { manifest: input.manifest ?? null, class: input.feed_class ?? null }, counted);
  switch (found.method) {
    case 'gutenberg_richter_poisson': return gutenbergRichterView(input, found);
    case 'extreme_value_term_maxima': return extremeValueView(input);
    case 'poisson_empirical_severity': return empiricalView(input, found);
  }
}

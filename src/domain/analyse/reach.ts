// feed_reach: the trigger designs a structure of a priced peril could be written with on a pinned
// feed, read from the trigger vocabulary (what each peril's model reads, what each feed holds).
// Pure: the caller says what the feed is (its class, from the feed catalog).
import type { FeedClass } from '../triggers/feed.js';
import {
  BOX_FEED_OF_PERIL, CAT_IN_A_BOX_VARIABLES, DESIGN_OF_VARIABLE, GATE_VARIABLE, PERIL_MODELS, REPORT_OF_VARIABLE, SERIES_OF_VARIABLE,
  SERIES_READ_BY_PERIL, SERIES_VARIABLES, STATE_EVENT_VARIABLE, type Design, type TriggerType,
} from '../triggers/vocabulary.js';

export interface WritableDesign {
  readonly design: Design;
  readonly trigger_type: TriggerType;
  /** trigger.measurement.variable values that can be written. */
  readonly variables: readonly string[];
  /** What else the structure must declare. */
  readonly needs?: string;
}

/** The trigger type whose variable selects the design. */
const typeOf = (design: Design, variable: string): TriggerType =>
  (Object.keys(DESIGN_OF_VARIABLE) as TriggerType[]).find((t) => DESIGN_OF_VARIABLE[t][variable] === design)!;

/** The designs of `peril`'s model that can read a feed of this class (none: the feed is not the peril's). */
export function designsOn(peril: string, cls: FeedClass): WritableDesign[] {
  const model = PERIL_MODELS[peril];
  if (!model) return [];
  const out: WritableDesign[] = [];
  for (const design of model.designs) {
    let variables: string[] = [];
    if (design === 'cat_in_a_box' && (cls.kind === 'event_catalog' || cls.kind === 'fire_extract' || cls.kind === 'storm_report_set')) {
      if ((BOX_FEED_OF_PERIL[peril] ?? 'storm_report_set') !== cls.kind) continue;
      variables = model.variables.filter((v) => (CAT_IN_A_BOX_VARIABLES as readonly string[]).includes(v)
        && (cls.kind !== 'storm_report_set' || v === 'report_value' || REPORT_OF_VARIABLE[v] === cls.report));
    } else if (design === 'index_series' && (cls.kind === 'daily_series' || cls.kind === 'outage_series')) {
      const series = cls.series;
      if (series === null || !(SERIES_READ_BY_PERIL[peril] ?? []).includes(series)) continue;
      variables = model.variables.filter((v) => (SERIES_VARIABLES as readonly string[]).includes(v) && SERIES_OF_VARIABLE[v] === series);
    } else if (design === 'track_gate' && cls.kind === 'track_archive') {
      variables = model.variables.filter((v) => v === GATE_VARIABLE);
    } else if (design === 'state_event' && cls.kind === 'outage_event_set' && cls.reading === 'oe417') {
      variables = model.variables.filter((v) => v === STATE_EVENT_VARIABLE);
    }
    if (variables.length === 0) continue;
    out.push({
      design, trigger_type: typeOf(design, variables[0]!), variables,
      ...(design === 'track_gate' ? { needs: 'a gate (box or polygon) in peril.region' } : design === 'cat_in_a_box' ? { needs: 'a box in peril.region inside the extract\'s coverage' }
        : design === 'state_event' ? { needs: 'the state in trigger.measurement.state (a USPS code); the record is state-level' } : {}),
    });
  }
  return out;
}

// What both tropical-cyclone lanes read and how GET /models lists it: one best-track archive per
// basin (the spec's basin picks one) and the impact-function tables; and their shared members.
import { snapshotListing, unavailable, type FeedPin, type PinnedSnapshot } from '../../inputs.js';
import type { SpecMember } from '../../lane.js';
import { TC_BASINS, type TcBasin } from './history-lane.js';
import { IMPACT_FUNCTION_CHOICES } from './impact-functions.js';
import { PERIL_GROUPS_INPUT } from '../oed-terms.js';

export const TC_TRACK_ARCHIVES: Readonly<Record<TcBasin, FeedPin>> = {
  NA: { feed_id: 'noaa-nhc-hurdat2-atlantic', version: '2024-11-18' },
  EP: { feed_id: 'noaa-nhc-hurdat2-northeast-central-pacific', version: '2024-11-07' },
  WP: { feed_id: 'jtwc-best-track-western-north-pacific', version: '2024-12-25' },
  NI: { feed_id: 'jtwc-best-track-north-indian', version: '2024-12-04' },
  SH: { feed_id: 'jtwc-best-track-southern-hemisphere', version: '2024-05-22' },
};

export const TC_IMPACT_FUNCTION_TABLES: FeedPin = { feed_id: 'tc-impact-functions', version: '2025-09-30' };

/** The engine whose method the tropical-cyclone lanes re-implement. */
export const CLIMADA_ENGINE = 'climada';

/** Both lanes' inputs: the basin's best tracks, picked by the spec, the calibrated impact functions, and OED's peril groups (an object's OED terms). */
export const TC_INPUTS = {
  tracks: { reader: 'track-archive', source: { pins: TC_TRACK_ARCHIVES, pick: (spec: { hazard: { basin: TcBasin } }) => spec.hazard.basin } },
  impact_functions: { reader: 'impact-calibration', source: { pin: TC_IMPACT_FUNCTION_TABLES } },
  peril_groups: PERIL_GROUPS_INPUT,
} as const;

const listed = (found: PinnedSnapshot | undefined, pin: FeedPin) => (found ? snapshotListing(found) : unavailable(pin));

export function tropicalCycloneListing(found: { tracks: Readonly<Record<TcBasin, PinnedSnapshot | undefined>>; impact_functions: PinnedSnapshot | undefined }) {
  return {
    pinned_inputs: {
      tracks: Object.fromEntries(TC_BASINS.map((b) => [b, listed(found.tracks[b], TC_TRACK_ARCHIVES[b])])),
      impact_functions: listed(found.impact_functions, TC_IMPACT_FUNCTION_TABLES),
    },
  };
}

export const IMPACT_FUNCTION_SCHEMA = { enum: [...IMPACT_FUNCTION_CHOICES], default: 'auto' } as const;
export const BASIN_SCHEMA = { enum: [...TC_BASINS] } as const;

/** The impact_function member, in the words of each lane. */
export const impactFunctionMember = (description: string): SpecMember => ({ schema: IMPACT_FUNCTION_SCHEMA, description });

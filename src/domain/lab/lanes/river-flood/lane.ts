// The river flood lane: every pinned river depth map (undefended) with the JRC depth-damage functions.
import { floodLane } from '../flood/flood-lanes.js';

export const riverFlood = floodLane({
  id: 'river-flood',
  lane: 'river-flood',
  engine: 'catrisk',
  version: 'flood-1.0.0-r1',
  revision: 'r1',
  label: 'Externally built open flood depth maps (pinned river-flood maps, undefended) with the JRC global depth-damage functions (Huizinga et al. 2017), run by this service; distinct from the registry\'s validated models.',
  flood: 'river',
  maps: 'river_flood_maps',
  exposure: '{points: [{lat, lon, value}]} or {object_id} (a location\'s value is its buildings plus contents value; an object ingested from an OED set has its terms applied for river flood, OED peril ORF, giving perspectives il and ri); a place no pinned map covers is unmodeled',
});

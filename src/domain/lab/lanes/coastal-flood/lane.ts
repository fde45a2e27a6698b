// The coastal flood lane: every pinned coastal depth map (undefended; none yet) with the JRC depth-damage functions.
import { floodLane } from '../flood/flood-lanes.js';

export const coastalFlood = floodLane({
  id: 'coastal-flood',
  lane: 'coastal-flood',
  engine: 'catrisk',
  version: 'flood-1.0.0-r1',
  revision: 'r1',
  label: 'Externally built open coastal flood depth maps (undefended) with the JRC global depth-damage functions (Huizinga et al. 2017), run by this service; distinct from the registry\'s validated models. No coastal map is pinned yet: every place comes back unmodeled.',
  flood: 'coastal',
  maps: 'coastal_flood_maps',
  exposure: '{points: [{lat, lon, value}]} or {object_id} (an object ingested from an OED set has its terms applied for storm surge, OED peril WSS, giving perspectives il and ri); a place no pinned coastal map covers is unmodeled (with none pinned, every place)',
});

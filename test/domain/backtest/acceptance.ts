// The acceptance bodies (a)–(e) of the structures issue, from the one copy the HTTP tests use.
import { ACCEPTANCE_BODIES } from '../../support/acceptance.js';

export const ACCEPTANCE: Record<'a' | 'b' | 'c' | 'd' | 'e', unknown> = {
  a: ACCEPTANCE_BODIES.earthquake,
  b: ACCEPTANCE_BODIES.flood,
  c: ACCEPTANCE_BODIES.tropical_cyclone,
  d: ACCEPTANCE_BODIES.weather_station,
  e: ACCEPTANCE_BODIES.wildfire,
};

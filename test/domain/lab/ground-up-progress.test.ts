// The ground-up run tells how many of the model's events are done (a lab job's progress), every 64
// events and once at the end, and computes the same losses whether it is told or not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unwrap } from '../../../src/kernel/result.js';
import { parsePiwindModel } from '../../../src/domain/lab/lanes/windstorm-piwind/piwind-model.js';
import { keyLocations } from '../../../src/domain/lab/lanes/windstorm-piwind/lookup.js';
import { runGroundUp } from '../../../src/domain/lab/engine/ground-up.js';
import { TINY_TEXTS, TINY_LOCATIONS } from './tiny-model.js';

test('the ground-up run reports the events done, ending with all of them, and its losses do not change', () => {
  const model = parsePiwindModel(TINY_TEXTS, { periods: 4 });
  const portfolio = keyLocations(model, TINY_LOCATIONS);
  const seen: Array<[number, number]> = [];
  const told = unwrap(runGroundUp(model, portfolio, { samples: 10, seed: 7, onEvents: (done, total) => seen.push([done, total]) }));
  const events = model.events.length;
  assert.deepEqual(seen, [[0, events], [events, events]]);
  const untold = unwrap(runGroundUp(model, portfolio, { samples: 10, seed: 7 }));
  assert.deepEqual(Array.from(told.groundUp[0]!), Array.from(untold.groundUp[0]!));
});

// The ESRM20 scenario events as the earthquake report reads them: the rupture XML of every pinned
// event (L'Aquila 2009 against its file's own numbers) and the losses workbook (48 event rows, the Irpinia 1980 row as written in the file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeedStore } from '../../src/feeds/store.js';
import { esrm20Scenarios } from '../../src/feeds/lab-inputs.js';
import { parseNrmlPlaneRupture } from '../../src/feeds/parsers/nrml-rupture.js';
import { FEEDS_DIR, manifestOf } from '../support/feeds.js';

const FEED = 'esrm20-scenario-events';

test('the 48 pinned ruptures and their losses rows', async () => {
  const store = await FeedStore.open(FEEDS_DIR, { feeds: [FEED] });
  const events = await esrm20Scenarios(store, store.get(FEED)!);
  assert.equal(events.length, 48);
  const magnitudes = events.map((e) => e.rupture.magnitude);
  // The manifest: "48 events, Mw 4.99-7.53".
  assert.match(manifestOf(FEED).notes[0], /Mw 4\.99-7\.53/);
  assert.deepEqual([Math.min(...magnitudes), Math.max(...magnitudes)], [4.99, 7.53]);
  for (const e of events) {
    // The plane's bottom lies below its top (a hypocentre may lie outside the plane: Italy_26-9-1997_1 has it at 5.1 km under a plane from 0.7 to 4.05 km).
    assert.ok(e.rupture.corners.bottomLeft.depth_km > e.rupture.corners.topLeft.depth_km, e.scenario_id);
    assert.ok(e.losses, `${e.scenario_id}: a row in the losses workbook`);
  }
  const laquila = events.find((e) => e.scenario_id === 'Italy_06-4-2009_1')!.rupture;
  // As written in rupture_Italy_06-4-2009_1.xml.
  assert.deepEqual({ m: laquila.magnitude, rake: laquila.rake, strike: laquila.strike, dip: laquila.dip, hypo: laquila.hypocentre }, { m: 6.18, rake: -90, strike: 140, dip: 50, hypo: { lat: 42.339, lon: 13.381, depth_km: 8.8 } });
  assert.deepEqual(laquila.corners.bottomRight, { lon: 13.42882584, lat: 42.23494699, depth_km: 11.09813333 });
  // The workbook's first event row: Italy_23-11-1980, 4689 deaths, Total Damage ($M) 20000 (NCEI and EM-DAT), ESRM20 rupture 857 deaths and EUR 18,760 M, ShakeMaps EUR 23,601 M.
  const irpinia = events.find((e) => e.scenario_id === 'Italy_23-11-1980')!.losses!;
  assert.deepEqual(irpinia, { scenario_id: 'Italy_23-11-1980', ncei_damage_musd: 20000, emdat_damage_musd: 20000, ncei_deaths: 4689, esrm20_rupture_loss_meur: 18760, esrm20_rupture_deaths: 857, esrm20_shakemap_loss_meur: 23601 });
  assert.throws(() => parseNrmlPlaneRupture('<nrml><multiPlanesRupture/></nrml>'), /multiPlanesRupture is not a singlePlaneRupture/);
});

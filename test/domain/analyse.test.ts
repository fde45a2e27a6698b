// The analyses' pure parts: the request's reading, the largest events near a point (hand-made
// events), and the designs a priced peril can write on each kind of feed (the vocabulary's table).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ANALYSES, readAnalyseRequest } from '../../src/domain/analyse/analyses.js';
import { largestNear, stormExtents, stormsNear } from '../../src/domain/analyse/nearby.js';
import { trackSummary } from '../../src/domain/hazard/summary.js';
import { designsOn } from '../../src/domain/analyse/reach.js';
import type { FeedClass } from '../../src/domain/triggers/feed.js';
import type { QuakeEvent, ReportEvent, Storm } from '../../src/domain/hazard/records.js';

test('the request names known analyses, in their order; unknown or none is unknown_analysis with the names', () => {
  const read = readAnalyseRequest({ analyses: ['exposure_quality', 'hazard_profile', 'hazard_profile'] });
  assert.deepEqual(read.ok && read.value, { analyses: ['hazard_profile', 'exposure_quality'], radius_km: 100 });
  for (const body of [null, undefined, {}, { analyses: [] }, { analyses: ['hazard_profile', 'flood_depth'] }]) {
    const refused = readAnalyseRequest(body as never);
    assert.ok(!refused.ok);
    assert.deepEqual([refused.refusal.status, refused.refusal.code], [422, 'unknown_analysis']);
    for (const name of ANALYSES) assert.match(refused.refusal.message, new RegExp(name));
  }
  const named = readAnalyseRequest({ analyses: ['flood_depth'] });
  assert.ok(!named.ok && /"flood_depth"/.test(named.refusal.message));
});

test('the largest events within the radius, by magnitude or value, ties by time then id', () => {
  // Hand-made events around (0, 0): one degree of latitude is 111.2 km on the mean sphere.
  const quake = (event_id: string, latitude: number, magnitude: number | null, time: string): QuakeEvent => ({
    event_id, time, epoch_ms: Date.parse(time), latitude, longitude: 0, depth_km: 10, magnitude, mag_type: 'mw', type: 'earthquake', net: 'us', status: 'reviewed', line: 1, fields: {},
  });
  const events = [
    quake('a', 0.5, 6.1, '2000-01-01T00:00:00Z'), quake('b', 0.8, 7.2, '2001-01-01T00:00:00Z'), quake('c', 0.85, 6.1, '1999-01-01T00:00:00Z'),
    quake('far', 1.0, 8.0, '2002-01-01T00:00:00Z'), quake('none', 0.1, null, '2003-01-01T00:00:00Z'),
  ];
  const near = largestNear(events, { latitude: 0, longitude: 0 }, 100, 2);
  assert.equal(near.within, 3, '111 km is beyond 100 km; an event without magnitude is not ranked');
  assert.deepEqual(near.largest.map((e) => e.event_id), ['b', 'c']);
  assert.ok(Math.abs(near.largest[0]!.distance_km - 0.8 * 6371.0088 * Math.PI / 180) < 1e-9);
  const report: ReportEvent = { kind: 'hail', event_id: 'h1', date: '2010-05-01', time: null, epoch_ms: 0, local_time: null, utc_offset: null, latitude: 0.1, longitude: 0.1, value: 2.75, unit: 'in', line: 1, fields: {} };
  assert.deepEqual(largestNear([report], { latitude: 0, longitude: 0 }, 25, 10).largest, [{ event_id: 'h1', latitude: 0.1, longitude: 0.1, distance_km: largestNear([report], { latitude: 0, longitude: 0 }, 25, 10).largest[0]!.distance_km, time: null, date: '2010-05-01', value: 2.75, unit: 'in' }]);
});

test('the designs each priced peril can write on each kind of feed', () => {
  const classes: Record<string, FeedClass> = {
    quakes: { kind: 'event_catalog' }, fires: { kind: 'fire_extract' }, hail: { kind: 'storm_report_set', report: 'hail' },
    rain: { kind: 'daily_series', series: 'rainfall' }, wind: { kind: 'daily_series', series: 'wind' }, river: { kind: 'daily_series', series: 'discharge' },
    outages: { kind: 'outage_series', series: 'outage' }, tracks: { kind: 'track_archive' },
  };
  const table = (peril: string) => Object.fromEntries(Object.entries(classes).flatMap(([name, cls]) => {
    const designs = designsOn(peril, cls);
    return designs.length === 0 ? [] : [[name, designs.map((d) => `${d.trigger_type}:${d.variables.join('+')}`)]];
  }));
  assert.deepEqual(table('earthquake'), { quakes: ['parametric_cat_in_a_box:magnitude'] });
  assert.deepEqual(table('wildfire'), { fires: ['parametric_cat_in_a_box:burned_acres+report_value'] });
  assert.deepEqual(table('severe_convective_storm'), { hail: ['parametric_cat_in_a_box:hail_diameter+report_value'] });
  assert.deepEqual(table('weather_station'), { rain: ['parametric_index:precipitation'], wind: ['parametric_index:wind_speed'], river: ['parametric_index:discharge'] });
  assert.deepEqual(table('flood'), { river: ['parametric_index:discharge'] }, 'a flood trigger on rainfall is refused');
  assert.deepEqual(table('tropical_cyclone'), { wind: ['parametric_index:wind_speed'], tracks: ['parametric_index:max_sustained_wind_in_gate'] });
  assert.deepEqual(table('grid_outage'), { outages: ['parametric_index:customers_out'] });
  assert.deepEqual(table('cloud_outage'), {});
  assert.deepEqual(table('extratropical_cyclone'), {});
});

test('the storm screen keeps every storm the track summary counts (random hand-made tracks)', () => {
  // Tracks drawn by a seeded generator: straight-ish paths of 2 to 12 six-hourly fixes.
  let seed = 20270101;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const storms: Storm[] = Array.from({ length: 400 }, (_, i) => {
    let lat = -60 + next() * 120;
    let lon = -180 + next() * 360;
    const dLat = (next() - 0.5) * 4;
    const dLon = (next() - 0.5) * 8;
    return {
      storm_id: `XX${String(i).padStart(2, '0')}2000`, name: null, basin: 'XX',
      fixes: Array.from({ length: 2 + Math.floor(next() * 11) }, (_, k) => {
        lat = Math.max(-89, Math.min(89, lat + dLat));
        lon = lon + dLon > 180 ? lon + dLon - 360 : lon + dLon < -180 ? lon + dLon + 360 : lon + dLon;
        const epoch = Date.UTC(2000, 8, 1) + k * 6 * 3_600_000;
        return { time: new Date(epoch).toISOString(), epoch_ms: epoch, latitude: lat, longitude: lon, max_wind_kt: 30 + Math.floor(next() * 120), min_pressure_mb: null };
      }),
    };
  });
  const extents = stormExtents(storms);
  let passes = 0;
  let kept = 0;
  for (let n = 0; n < 200; n += 1) {
    const point = { latitude: -60 + next() * 120, longitude: -180 + next() * 360 };
    const radiusKm = 50 + next() * 450;
    const years = { from: 2000, to: 2000 };
    const all = trackSummary(storms, point, { radiusKm, years });
    const near = stormsNear(storms, extents, point, radiusKm);
    const screened = trackSummary(near, point, { radiusKm, years });
    assert.equal(screened.storms_within_radius, all.storms_within_radius);
    assert.deepEqual(screened.strongest, all.strongest);
    passes += all.storms_within_radius;
    kept += near.length;
  }
  assert.ok(passes > 20, `storms pass within the radius (${passes})`);
  assert.ok(kept < 200 * storms.length / 4, `the screen leaves most storms out (${kept})`);
});

// The structure validator: the acceptance bodies pass; every refusal is named, and split into shape
// faults (POST, invalid_structure), data faults (job: unbacktestable_structure / unpriceable_object)
// and request faults (the backtest window, invalid_request).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAULT_CATALOGUE, faultAnswer, type StructureValidation } from '../../../src/domain/triggers/faults.js';
import type { FeedContext } from '../../../src/domain/triggers/feed.js';
import { dataRequest, validateStructure } from '../../../src/domain/triggers/index.js';
import { latestVersion, manifestOf } from '../../support/feeds.js';
import { feedClass } from '../../../src/feeds/catalog.js';
import { ACCEPTANCE } from '../backtest/acceptance.js';

const feed = (feedId: string): FeedContext => ({ feed_id: feedId, version: latestVersion(feedId), manifest: manifestOf(feedId), class: feedClass(manifestOf(feedId)) });

type Json = Record<string, any>;
/** A copy of `body` with the member at `path` set (or deleted when value is undefined). */
function edit(body: unknown, path: string, value?: unknown): Json {
  const copy = structuredClone(body) as Json;
  const keys = path.split('.');
  let node: Json = copy;
  for (const k of keys.slice(0, -1)) node = node[k];
  const last = keys.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

const sourceOf = (body: unknown): string => (body as Json).trigger.data_sources[0].feed_id;
const faults = (v: StructureValidation): string[] => [...v.shape_faults, ...v.request_faults, ...v.data_faults].map((f) => f.fault);

test('the acceptance bodies (a)-(e) are accepted, on the POST and against their pinned feeds', () => {
  for (const [name, body] of Object.entries(ACCEPTANCE)) {
    const post = validateStructure(body);
    assert.deepEqual(faults(post), [], `${name} on the POST`);
    assert.equal(faultAnswer(post, 'structure'), null);
    const job = validateStructure(body, { feed: feed(sourceOf(body)) });
    assert.equal(job.ok, true, `${name}: ${JSON.stringify(job)}`);
    assert.equal(faultAnswer(job, 'backtest'), null);
  }
  const a = validateStructure(ACCEPTANCE.a).structure!;
  assert.equal(a.design, 'cat_in_a_box');
  assert.equal(a.payout.basis, 'per_occurrence');
  assert.equal(a.aggregation_window!.ms, 7 * 86_400_000);
  assert.equal(a.financial.annual_cap, 10_000_000);
  assert.equal(validateStructure(ACCEPTANCE.c).structure!.design, 'track_gate');
  assert.equal(validateStructure(ACCEPTANCE.c).structure!.payout.basis, 'per_event');
  assert.deepEqual(dataRequest(validateStructure(ACCEPTANCE.d).structure!, feedClass(manifestOf('ghcnd-usw00012816-prcp'))), { feed_id: 'ghcnd-usw00012816-prcp', version: '2024-08-16', reader: 'daily_series', element: 'PRCP' });
  assert.deepEqual(dataRequest(validateStructure(ACCEPTANCE.b).structure!, feedClass(manifestOf('usgs-nwis-04119000-discharge'))), { feed_id: 'usgs-nwis-04119000-discharge', version: '2017-10-18', reader: 'daily_series', element: null });
  assert.deepEqual(dataRequest(validateStructure(ACCEPTANCE.c).structure!).reader, 'track_archive');
});

test('shape faults are named and answered on the POST with 422 invalid_structure', () => {
  const { a, b, c, d } = ACCEPTANCE;
  const ladder = (levels: unknown) => edit(a, 'trigger.payout.levels', levels);
  const cases: [string, unknown, string[]][] = [
    ['not an object', 'ladder', ['terms_not_object']],
    ['no trigger', edit(a, 'trigger'), ['block_missing']],
    ['trigger type missing', edit(a, 'trigger.type'), ['trigger_type_missing']],
    ['trigger type unknown', edit(a, 'trigger.type', 'parametric_magic'), ['trigger_type_unknown']],
    ['fractions not increasing', ladder([{ at_least: 6.5, fraction: 0.5 }, { at_least: 7, fraction: 0.25 }]), ['ladder_fractions_not_increasing']],
    ['fraction above 1', ladder([{ at_least: 6.5, fraction: 1.5 }]), ['ladder_fraction_out_of_range']],
    ['fraction 0', ladder([{ at_least: 6.5, fraction: 0 }, { at_least: 7, fraction: 0.5 }]), ['ladder_fraction_out_of_range']],
    ['levels out of order', ladder([{ at_least: 7, fraction: 0.25 }, { at_least: 6.5, fraction: 0.5 }]), ['ladder_levels_not_increasing']],
    ['no levels', ladder([]), ['ladder_levels_missing']],
    ['level not a number', ladder([{ at_least: '6.5', fraction: 0.5 }]), ['ladder_level_invalid']],
    ['linear exhaustion at attachment', edit(b, 'trigger.payout.exhaustion', 25000), ['linear_exhaustion_not_above_attachment']],
    ['linear exhaustion below attachment', edit(b, 'trigger.payout.exhaustion', 1000), ['linear_exhaustion_not_above_attachment']],
    ['payout function unknown', edit(a, 'trigger.payout.function', 'step'), ['payout_function_unknown']],
    ['payout missing', edit(a, 'trigger.payout'), ['payout_missing']],
    ['per_window basis on a daily index', edit(b, 'trigger.payout.basis', 'per_window'), ['payout_basis_unknown']],
    ['duration in months', edit(a, 'trigger.aggregation_window.duration', 'P1M'), ['aggregation_window_duration_invalid']],
    ['duration not ISO 8601', edit(a, 'trigger.aggregation_window.duration', '7 days'), ['aggregation_window_duration_invalid']],
    ['no aggregation window', edit(a, 'trigger.aggregation_window'), ['aggregation_window_missing']],
    ['daily window not whole days', edit(b, 'trigger.aggregation_window.duration', 'PT36H'), ['aggregation_window_not_whole_days']],
    ['daily window longer than the term', edit(b, 'trigger.aggregation_window.duration', 'P100D'), ['aggregation_window_longer_than_term']],
    ['gate with an aggregation window', edit(c, 'trigger.aggregation_window', { duration: 'P3D' }), ['aggregation_window_not_read']],
    ['daily index without aggregation', edit(d, 'trigger.measurement.aggregation'), ['measurement_aggregation_missing']],
    ['aggregation unknown', edit(d, 'trigger.measurement.aggregation', 'median'), ['measurement_aggregation_unknown']],
    ['variable unknown', edit(a, 'trigger.measurement.variable', 'shaking'), ['measurement_variable_unknown']],
    ['variable of the other trigger type', edit(a, 'trigger.measurement.variable', 'discharge'), ['measurement_variable_unknown']],
    ['unit unknown', edit(d, 'trigger.measurement.unit', 'furlongs'), ['measurement_unit_unknown']],
    ['unit of another dimension', edit(d, 'trigger.measurement.unit', 'kt'), ['measurement_unit_unknown']],
    ['typo in a member name', edit(edit(a, 'trigger.measurement.max_depth_km'), 'trigger.measurement.max_depth', 70), ['unknown_member']],
    ['depth limit negative', edit(a, 'trigger.measurement.max_depth_km', -5), ['max_depth_km_invalid']],
    ['depth limit on acres', edit(ACCEPTANCE.e, 'trigger.measurement.max_depth_km', 10), ['max_depth_km_not_read']],
    ['element malformed', edit(d, 'trigger.measurement.element', 'rain'), ['element_invalid']],
    ['no box for a cat-in-a-box', edit(a, 'peril.region'), ['region_missing']],
    ['no gate for a track gate', edit(c, 'peril.region'), ['region_missing']],
    ['box upside down', edit(a, 'peril.region.min_latitude', 40), ['region_invalid']],
    ['latitude off the globe', edit(a, 'peril.region.max_latitude', 91), ['region_invalid']],
    ['polygon of two vertices', edit(c, 'peril.region', { type: 'polygon', coordinates: [[-81, 25], [-80, 26]] }), ['region_invalid']],
    ['peril code missing', edit(a, 'peril.code'), ['peril_code_missing']],
    ['peril code unknown', edit(a, 'peril.code', 'volcano'), ['peril_code_unknown']],
    ['currency lower case', edit(a, 'financial_structure.currency', 'usd'), ['currency_invalid']],
    ['limit zero', edit(a, 'financial_structure.limit', 0), ['limit_invalid']],
    ['attachment negative', edit(a, 'financial_structure.attachment', -1), ['attachment_invalid']],
    ['annual limit zero', edit(a, 'financial_structure.annual_limit', 0), ['annual_limit_invalid']],
    ['period end before start', edit(a, 'period.end', '2026-12-31'), ['period_end_before_start']],
    ['period longer than a year', edit(a, 'period.end', '2028-01-01'), ['period_longer_than_a_year']],
    ['period date invalid', edit(a, 'period.start', '2027-02-30'), ['period_date_invalid']],
    ['no data sources', edit(a, 'trigger.data_sources', []), ['data_sources_missing']],
    ['data source without feed id', edit(a, 'trigger.data_sources', [{ version: 'x' }]), ['data_source_invalid']],
  ];
  for (const [name, body, expected] of cases) {
    const v = validateStructure(body);
    assert.deepEqual(faults(v), expected, name);
    assert.equal(v.ok, false);
    assert.equal(v.structure, null, name);
    for (const f of v.shape_faults) {
      assert.equal(f.kind, 'shape');
      assert.equal(FAULT_CATALOGUE[f.fault], 'shape');
      assert.ok(f.message.length > 10);
    }
    const answer = faultAnswer(v, 'structure');
    assert.equal(answer?.code, 'invalid_structure', name);
    assert.equal(faultAnswer(v, 'price')?.code, 'unpriceable_object', `${name}: a price job refuses it with its own code`);
    assert.equal(answer?.status, 422);
    assert.ok(answer!.details.length >= 1);
  }
  // Several faults at once: each named, with where it is.
  const many = validateStructure(edit(edit(a, 'financial_structure.limit', -1), 'trigger.payout.levels', [{ at_least: 7, fraction: 2 }]));
  assert.deepEqual(many.shape_faults.map((f) => [f.fault, f.path]), [
    ['ladder_fraction_out_of_range', 'trigger.payout.levels[0].fraction'],
    ['limit_invalid', 'financial_structure.limit'],
  ]);
});

test('data faults are named and answered on the job: unbacktestable_structure on a backtest, unpriceable_object on a price', () => {
  const { a, b, c, d } = ACCEPTANCE;
  const onFeed = (body: unknown, feedId: string): Json => edit(body, 'trigger.data_sources', [{ feed_id: feedId, version: latestVersion(feedId) }]);
  const rainfall = 'ghcnd-usw00012816-prcp';
  const cases: [string, unknown, string[]][] = [
    ['cloud_outage has no pricing model', edit(d, 'peril.code', 'cloud_outage'), ['peril_not_priced']],
    ['extratropical_cyclone has no pricing model', edit(d, 'peril.code', 'extratropical_cyclone'), ['peril_not_priced']],
    ['tropical_cyclone written on a rainfall series', edit(d, 'peril.code', 'tropical_cyclone'), ['tropical_cyclone_on_rainfall_series']],
    ['tropical_cyclone wind index pointed at a rainfall series',
      edit(edit(onFeed(d, rainfall), 'peril.code', 'tropical_cyclone'), 'trigger.measurement', { variable: 'wind_speed', aggregation: 'max', unit: 'kt' }),
      ['tropical_cyclone_on_rainfall_series']],
    ['flood written on a rainfall series', edit(d, 'peril.code', 'flood'), ['flood_on_rainfall_series']],
    ['flood discharge index pointed at a rainfall series', onFeed(b, rainfall), ['flood_on_rainfall_series']],
    ['grid_outage on a rainfall series',
      edit(edit(d, 'peril.code', 'grid_outage'), 'trigger.measurement', { variable: 'customers_out', aggregation: 'max' }), ['grid_outage_not_on_outage_series']],
    ['weather_station on an outage series',
      edit(onFeed(edit(d, 'trigger.measurement', { variable: 'discharge', aggregation: 'max' }), 'gema-county-outages-13051'), 'peril.code', 'weather_station'),
      ['weather_station_on_outage_series']],
    ['an index trigger for earthquake', edit(b, 'peril.code', 'earthquake'), ['trigger_not_read_for_peril']],
    ['a cat-in-a-box for flood', edit(a, 'peril.code', 'flood'), ['trigger_not_read_for_peril']],
    ['acres for an earthquake', edit(edit(ACCEPTANCE.e, 'peril.code', 'earthquake'), 'peril.region', (a as Json).peril.region), ['measurement_not_read_for_peril']],
    ['quake box on a discharge series', onFeed(a, 'usgs-nwis-04119000-discharge'), ['feed_kind_not_read']],
    ['earthquake on a fire extract', onFeed(a, 'usgs-mtbs-northern-california'), ['feed_not_read_for_peril']],
    ['gate on a daily series', onFeed(c, 'ghcnd-usw00012816-wind'), ['feed_kind_not_read']],
    ['hail diameter on a tornado extract',
      onFeed(edit(edit(edit(a, 'peril.code', 'severe_convective_storm'), 'trigger.measurement', { variable: 'hail_diameter' }), 'peril.region', { type: 'box', min_latitude: 39.6, max_latitude: 39.9, min_longitude: -105.1, max_longitude: -104.6 }), 'noaa-spc-tornado-denver'),
      ['measurement_not_in_feed']],
    ['element the wind feed does not serve',
      edit(onFeed(edit(d, 'peril.code', 'tropical_cyclone'), 'ghcnd-usw00012816-wind'), 'trigger.measurement', { variable: 'wind_speed', aggregation: 'max', element: 'WSF2' }),
      ['element_not_in_feed']],
    ['element on a gauge', edit(b, 'trigger.measurement', { variable: 'discharge', aggregation: 'mean', element: 'PRCP' }), ['element_not_read']],
    ['box outside the extract', edit(a, 'peril.region.max_latitude', 43), ['region_outside_feed_coverage']],
    ['vintage not pinned in the terms', edit(a, 'trigger.data_sources', [{ feed_id: 'usgs-comcat-m6-california' }]), ['feed_version_not_pinned']],
    ['two data sources', edit(a, 'trigger.data_sources', [{ feed_id: 'usgs-comcat-m6-california', version: '2022-12-20' }, { feed_id: 'usgs-comcat-m6-alaska', version: '2023-07-16' }]), ['more_than_one_data_source']],
  ];
  for (const [name, body, expected] of cases) {
    const post = validateStructure(body);
    if (expected[0] === 'element_not_read') {
      // An element on a non-GHCN variable is known from the body alone.
      assert.deepEqual(faults(post), expected, name);
      continue;
    }
    assert.deepEqual(post.shape_faults, [], `${name}: the POST accepts the shape`);
    assert.equal(faultAnswer(post, 'structure'), null, `${name}: nothing to refuse on the POST`);
    const ds = (body as Json).trigger.data_sources;
    const job = validateStructure(body, { feed: ds.length === 1 && ds[0].version ? feed(ds[0].feed_id) : undefined });
    assert.deepEqual(faults(job), expected, name);
    assert.ok(job.data_faults.every((f) => f.kind === 'data' && FAULT_CATALOGUE[f.fault] === 'data'));
    assert.equal(faultAnswer(job, 'backtest')?.code, 'unbacktestable_structure', name);
    assert.equal(faultAnswer(job, 'price')?.code, 'unpriceable_object', name);
    assert.match(faultAnswer(job, 'backtest')!.details[0]!, new RegExp(`^${expected[0]} at `));
  }
  // An unknown vintage (no pinned snapshot found by the caller).
  const unknown = validateStructure(edit(a, 'trigger.data_sources', [{ feed_id: 'usgs-comcat-m6-california', version: '1999-01-01' }]), { feed: null });
  assert.deepEqual(faults(unknown), ['feed_not_pinned']);
  // The window against the period of record (1901-03-03 to 2022-12-20).
  const ctx = { feed: feed('usgs-comcat-m6-california') };
  assert.deepEqual(faults(validateStructure(a, { ...ctx, window: { from_year: 1900, to_year: 2000 } })), ['window_outside_period_of_record']);
  assert.deepEqual(faults(validateStructure(a, { ...ctx, window: { from_year: 1901, to_year: 2023 } })), ['window_outside_period_of_record']);
  assert.deepEqual(faults(validateStructure(a, { ...ctx, window: { from_year: 1901, to_year: 2022 } })), []);
  const reversed = validateStructure(a, { ...ctx, window: { from_year: 2000, to_year: 1990 } });
  assert.deepEqual(faults(reversed), ['window_invalid']);
  assert.equal(faultAnswer(reversed, 'backtest')?.code, 'invalid_request');
  assert.deepEqual(faults(validateStructure(a, { ...ctx, window: { from_year: 1990.5 } })), ['window_invalid']);
});

test('every priced peril has a structure the validator accepts against a real pinned feed', () => {
  const scs = edit(edit(edit(ACCEPTANCE.a, 'peril.code', 'severe_convective_storm'), 'trigger.measurement', { variable: 'wind_speed', unit: 'kt' }), 'peril.region',
    { type: 'box', min_latitude: 39.6, max_latitude: 39.9, min_longitude: -105.1, max_longitude: -104.6 });
  const accepted: [unknown, string][] = [
    [ACCEPTANCE.a, 'usgs-comcat-m6-california'],
    [ACCEPTANCE.b, 'usgs-nwis-04119000-discharge'],
    [edit(ACCEPTANCE.b, 'peril.code', 'weather_station'), 'usgs-nwis-04119000-discharge'],
    [ACCEPTANCE.c, 'noaa-nhc-hurdat2-atlantic'],
    [ACCEPTANCE.d, 'ghcnd-usw00012816-prcp'],
    [ACCEPTANCE.e, 'usgs-mtbs-northern-california'],
    [edit(scs, 'trigger.data_sources', [{ feed_id: 'noaa-ncei-storm-events-wind-denver', version: '1992-08-03' }]), 'noaa-ncei-storm-events-wind-denver'],
    [edit(edit(ACCEPTANCE.d, 'peril.code', 'grid_outage'), 'trigger', {
      type: 'parametric_index', data_sources: [{ feed_id: 'gema-county-outages-13121', version: '2024-11-05' }],
      measurement: { variable: 'customers_out', aggregation: 'max', unit: 'customers' }, aggregation_window: { duration: 'P1D' },
      payout: { function: 'ladder', levels: [{ at_least: 50000, fraction: 1 }] },
    }), 'gema-county-outages-13121'],
    [edit(edit(ACCEPTANCE.d, 'peril.code', 'tropical_cyclone'), 'trigger', {
      type: 'parametric_index', data_sources: [{ feed_id: 'ghcnd-usw00003870-wind', version: '2012-09-30' }],
      measurement: { variable: 'wind_speed', aggregation: 'max', unit: 'm/s', element: 'WSF2' }, aggregation_window: { duration: 'P1D' },
      payout: { function: 'linear', attachment: 20, exhaustion: 35 },
    }), 'ghcnd-usw00003870-wind'],
  ];
  for (const [body, feedId] of accepted) {
    const v = validateStructure(body, { feed: feed(feedId) });
    assert.deepEqual(faults(v), [], feedId);
  }
});

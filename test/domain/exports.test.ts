// The export writers: RFC 4180 CSV read back by a real parser, the OED columns a location set
// needs, and the ORD mapping of lab-metrics/1 on a hand-made metrics block.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { csvField, csvRecord, csvTable } from '../../src/domain/exports/csv.js';
import { eventPageCsv, eventPageGeoJson } from '../../src/domain/exports/event-formats.js';
import { OedColumnPlan, oedRecordsCsv } from '../../src/domain/exports/oed-location.js';
import { ordCsv } from '../../src/domain/exports/ord-tables.js';
import type { LabMetrics } from '../../src/domain/lab/engine/metrics.js';
import type { ScheduleLocation } from '../../src/domain/exposure/types.js';

test('CSV fields are quoted only when they must be, quotes doubled, records ended by CRLF', () => {
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('cr\r'), '"cr\r"');
  assert.equal(csvField(null), '');
  assert.equal(csvField(undefined), '');
  assert.equal(csvField(0.1 + 0.2), '0.30000000000000004');
  assert.equal(csvField(-0.5), '-0.5');
  assert.equal(csvRecord(['a', 1, null]), 'a,1,\r\n');
  const awkward = ['Tōkyō, "Head" office', 'line\r\nbreak', '', ' spaced ', '=1+1', 'naïve'];
  const text = csvTable(['name', 'n'], awkward.map((s, i) => [s, i]));
  assert.deepEqual(parse(text, { columns: true }), awkward.map((s, i) => ({ name: s, n: String(i) })));
  // Every record, quoted newlines aside, ends with CRLF.
  assert.ok(text.endsWith('\r\n'));
});

const location = (over: Partial<ScheduleLocation> = {}): ScheduleLocation => ({
  ref: 'L1', address: { city: 'Koto' }, latitude: 35.6, longitude: 139.7,
  occupancy: { code: 1104, text: 'Office' }, construction: { code: null, text: 'Timber, mostly' }, year_built: null,
  values: { buildings: '100.00', total: '100.00' }, ...over,
});

// The spec's order, as much of it as these tests name (OEDInputFields.csv lists far more).
const ORDER = ['PortNumber', 'AccNumber', 'LocNumber', 'LocName', 'IsTenant', 'BuildingID', 'CountryCode', 'Latitude', 'Longitude', 'StreetAddress',
  'PostalCode', 'City', 'OccupancyCode', 'ConstructionCode', 'YearBuilt', 'NumberOfStoreys', 'LocPerilsCovered', 'BuildingTIV', 'OtherTIV', 'ContentsTIV', 'BITIV', 'LocCurrency', 'OEDVersion'];
const csvOf = (locations: ScheduleLocation[], context = { objectId: 'obj_1', peril: 'tropical_cyclone', currency: 'JPY' }) => {
  const plan = new OedColumnPlan(context);
  plan.add(locations);
  const w = plan.writer(ORDER);
  return { text: w.header() + locations.map((l) => w.record(l)).join(''), filled: w.filled };
};

test('a broker schedule as OED: the columns its locations have, and OED\'s required ones filled and named', () => {
  const { text, filled } = csvOf([location(), location({ ref: null, storeys: 3, oed: { PortNumber: 'P1' }, values: { total: '250.00' } })]);
  assert.equal(text, 'PortNumber,AccNumber,LocNumber,City,CountryCode,Latitude,Longitude,OccupancyCode,ConstructionCode,YearBuilt,NumberOfStoreys,LocPerilsCovered,BuildingTIV,LocCurrency\r\n'
    + 'obj_1,obj_1,L1,Koto,JP,35.6,139.7,1104,"Timber, mostly",,,WTC,100.00,JPY\r\n'
    + 'P1,obj_1,2,Koto,JP,35.6,139.7,1104,"Timber, mostly",,3,WTC,250.00,JPY\r\n');
  assert.deepEqual([...filled].sort(), ['AccNumber', 'BuildingTIV', 'CountryCode', 'LocCurrency', 'LocNumber', 'LocPerilsCovered', 'PortNumber']);
  // Given values are never overwritten; a peril OED has no code for fills nothing.
  const own = csvOf([location({ address: { country: 'JP' }, currency: 'USD', perils_covered: 'WW1' })], { objectId: 'o', peril: 'grid_outage', currency: 'JPY' });
  assert.match(own.text, /,JP,35\.6,139\.7,.*,WW1,100\.00,USD\r\n$/);
  assert.deepEqual([...own.filled].sort(), ['AccNumber', 'PortNumber']);
});

test('an account or reinsurance file as read: every field some record holds, in the spec\'s order, unknown ones after', () => {
  const csv = oedRecordsCsv([{ PolNumber: 'P1', AccNumber: 'A1', PortNumber: 1 }, { PortNumber: 1, AccNumber: 'A2', Extra: 'x', PolNumber: 'P2' }], ['PortNumber', 'AccNumber', 'PolNumber']);
  assert.equal(csv, 'PortNumber,AccNumber,PolNumber,Extra\r\n1,A1,P1,\r\n1,A2,P2,x\r\n');
});

const METRICS = {
  schema: 'lab-metrics/1', perspective: 'ground_up', loss_basis: 'mean over 10 Latin-hypercube samples per event with allocation rule 1', periods: 20,
  events_with_loss: 2, average_annual_loss: { mean: 7.5, standard_deviation: 3.25, standard_error: 0.7 },
  exceedance: { rule: '', max_published_return_period: 2, oep: [{ return_period: 2, loss: 10, tvar: 12 }], aep: [{ return_period: 2, loss: 11, tvar: 13 }], withheld: [] },
  blocks: null, places: [], largest_events: [], sensitivity: null, assumptions: [], warnings: [],
  elt: [{ event_id: 7, loss: 50, occurrences: 2 }, { event_id: 9, loss: 25, occurrences: 1 }],
  ylt: [{ period: 3, loss: 75, max_event_loss: 50, events: 2 }],
} as unknown as LabMetrics;

test('ORD tables: EPCalc 4 and SampleType 2 for a sampled run, 1 for analytical means, every figure as given', () => {
  // Period 3 holds two events with a loss: the OEP of event means is not ORD's sample-mean OEP, so a sampled EPT has the AEP only.
  assert.equal(ordCsv(METRICS, 'ept', true), 'SummaryId,EPCalc,EPType,ReturnPeriod,Loss\r\n1,4,3,2,11\r\n1,4,4,2,13\r\n');
  assert.equal(ordCsv(METRICS, 'ept', false), 'SummaryId,EPCalc,EPType,ReturnPeriod,Loss\r\n1,1,1,2,10\r\n1,1,2,2,12\r\n1,1,3,2,11\r\n1,1,4,2,13\r\n');
  assert.equal(ordCsv(METRICS, 'melt', true), 'EventId,SummaryId,SampleType,EventRate,ChanceOfLoss,MeanLoss,SDLoss,MaxLoss,FootprintExposure,MeanImpactedExposure,MaxImpactedExposure\r\n7,1,2,0.1,,50,,,,,\r\n9,1,2,0.05,,25,,,,,\r\n');
  assert.equal(ordCsv(METRICS, 'ylt', true), 'period,period_weight,loss,max_event_loss,events\r\n3,0.05,75,50,2\r\n');
  assert.equal(ordCsv(METRICS, 'mplt', true), null);
  assert.equal(ordCsv(METRICS, 'alt', true), 'SummaryId,SampleType,MeanLoss,SDLoss\r\n1,2,7.5,\r\n');
  const analytical = { ...METRICS, average_annual_loss: { mean: 1, standard_deviation: null, standard_error: null } };
  assert.equal(ordCsv(analytical, 'alt', false), 'SummaryId,SampleType,MeanLoss,SDLoss\r\n1,1,1,\r\n');
});

test('an event page as GeoJSON: Points at [longitude, latitude], a null geometry where the event has no place', () => {
  const page = {
    schema: 'event-catalogue.v0', feed: { kind: 'storm_report_set' }, page: { next: null },
    events: [
      { event_id: 'a', time: '2020-01-01', date: '2020-01-01', latitude: 39.7, longitude: -104.9, value: 2, unit: 'in', report_kind: 'hail' },
      { event_id: 'b', time: '2020-01-02', date: '2020-01-02', latitude: null, longitude: null, value: 1.5, unit: 'in', report_kind: 'hail' },
    ],
  };
  const geo = eventPageGeoJson(page) as any;
  assert.equal(geo.type, 'FeatureCollection');
  assert.deepEqual(geo.features.map((f: any) => f.geometry), [{ type: 'Point', coordinates: [-104.9, 39.7] }, null]);
  assert.deepEqual(geo.features.map((f: any) => f.properties), page.events);
  assert.deepEqual(geo.page, page.page);
  assert.equal(geo.events, undefined);
  assert.equal(eventPageCsv(page), 'event_id,time,date,latitude,longitude,value,unit,report_kind\r\na,2020-01-01,2020-01-01,39.7,-104.9,2,in,hail\r\nb,2020-01-02,2020-01-02,,,1.5,in,hail\r\n');
});

// Totals rows wherever brokers write them, the value columns of the schedules brokers send (OED,
// AIR/Verisk CEDE, RMS/Moody's EDM exports, plain English), OED identifiers kept, and amounts in
// their currency's ISO 4217 minor unit. Every schedule here is hand-made inside the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSchedule } from '../../../src/domain/exposure/read-schedule.js';
import type { ScheduleRead } from '../../../src/domain/exposure/types.js';
import { oedReference } from './support.js';
import { unwrap } from '../../../src/kernel/result.js';

const oed = oedReference();

function readOk(text: string, currency?: string): ScheduleRead {
  const result = readSchedule(new TextEncoder().encode(text), { fileName: 'schedule.csv', oed, ...(currency === undefined ? {} : { currency }) });
  assert.equal(result.ok, true, result.ok ? '' : result.refusal.message);
  return unwrap(result);
}

test('totals rows labelled in any column, in several languages, and an unlabelled sum row, are never locations', () => {
  const r = readOk([
    'Site ID,Street,City,Country,Occupancy,Site name,Buildings,Contents',
    'A1,1 Rue Neuve,Lyon,FR,Office,Siège,1000000,200000',
    'A2,2 Rue Haute,Lyon,FR,Retail,Boutique,500000,100000',
    ',,,,Total,,1500000,300000', // the word in the occupancy column
    'B1,3 Hauptstr.,Köln,DE,Office,Büro,2000000,400000',
    'B2,4 Ringstr.,Köln,DE,Warehouse,Lager,1000000,50000',
    ',,Gesamt,,,,3000000,450000', // in the city column
    ',,,Summe,,,4500000,750000', // in the country column: all rows so far (the block since Gesamt is empty)
    'C1,5 Main St,Leeds,GB,Office,HQ,700000,70000',
    'C2,6 Side St,Leeds,GB,Office,Annex,300000,30000',
    ',,,,All sites,,1000000,100000', // unlabelled: no ref, no position, amounts equal the sums above
    ',,,,,合計,5500000,860000', // in an unmapped column, not equal to the sums: still excluded, disclosed
  ].join('\n'));
  assert.deepEqual(r.exposure.locations.map((l) => l.ref), ['A1', 'A2', 'B1', 'B2', 'C1', 'C2']);
  // The schedule's value is the six locations', not doubled by its totals rows.
  assert.deepEqual(r.exposure.values, { buildings: '5500000.00', contents: '850000.00', total: '6350000.00' });
  const totals = r.exposure.source_fidelity.totals_rows ?? [];
  assert.deepEqual(totals.map((t) => [t.row, t.kind, t.label, t.matched, t.rows_summed]), [
    [4, 'total', 'Total', true, 2],
    [7, 'total', 'Gesamt', true, 2],
    [8, 'total', 'Summe', true, 4],
    [11, 'total', null, true, 2],
    [12, 'total', '合計', false, 0],
  ]);
  assert.deepEqual(totals[4]?.stated, { buildings: '5500000.00', contents: '860000.00' });
  assert.deepEqual(totals[0]?.summed, { buildings: '1500000.00', contents: '300000.00' });
  assert.deepEqual(totals[2]?.summed, { buildings: '4500000.00', contents: '750000.00' });
});

test('labels: totals and subtotals in the words brokers use; names that only start alike are not labels', async () => {
  const { totalsLabelKind } = await import('../../../src/domain/exposure/totals.js');
  for (const label of ['Total', 'TOTALS', 'Grand Total', 'Total général', 'Totale', 'Totaal', 'Suma total', 'Sum', 'Summe', 'Gesamt', 'Gesamtsumme', 'Total TIV USD', '合計', 'Итого', 'Yhteensä']) {
    assert.equal(totalsLabelKind(label), 'total', label);
  }
  for (const label of ['Subtotal', 'Sub-total Texas', 'Sous-total', 'Zwischensumme', '小計']) assert.equal(totalsLabelKind(label), 'subtotal', label);
  for (const text of ['Sum Street', 'Sumatra', 'Totalview Ltd and partners of the north', 'Office', '', '12345']) assert.equal(totalsLabelKind(text), null, text);
});

test('a subtotal then a grand total: each checked against its own rows', () => {
  const r = readOk('Ref,Region,TIV\n1,North,100\n2,North,200\n,Subtotal,300\n3,South,50\n,Grand total,350\n');
  assert.equal(r.exposure.locations.length, 3);
  assert.equal(r.exposure.values.total, '350.00');
  assert.deepEqual((r.exposure.source_fidelity.totals_rows ?? []).map((t) => [t.kind, t.label, t.matched, t.summed]), [
    ['subtotal', 'Subtotal', true, { total: '300.00' }],
    ['total', 'Grand total', true, { total: '350.00' }],
  ]);
});

test('AIR/Verisk CEDE location headers: every value part mapped, time element as business interruption', () => {
  const r = readOk([
    'ContractID,LocationID,LocationName,Street,City,PostalCode,CountryISO,Latitude,Longitude,BuildingValue,OtherValue,ContentsValue,TimeElementValue,DaysCovered,Currency',
    'C-9,L1,Plant,1 Dock Rd,Houston,77002,US,29.76,-95.37,1000000,50000,250000,400000,365,USD',
  ].join('\n'));
  const [l] = r.exposure.locations;
  assert.deepEqual(l?.values, { buildings: '1000000.00', other: '50000.00', contents: '250000.00', business_interruption: '400000.00', total: '1700000.00' });
  assert.equal(l?.bi_period_days, 365);
  assert.equal(l?.ref, 'L1');
  assert.deepEqual(l?.oed, { AccNumber: 'C-9', LocName: 'Plant' });
  assert.deepEqual(r.exposure.source_fidelity.unmapped_columns, []);
  // CEDE's lettered coverages: A building, B other structures, C contents, D time element.
  const s = readOk('LocationID,ReplacementValueA,ReplacementValueB,ReplacementValueC,ReplacementValueD\nL1,100,10,30,20\n', 'USD');
  assert.deepEqual(s.exposure.locations[0]?.values, { buildings: '100.00', other: '10.00', contents: '30.00', business_interruption: '20.00', total: '160.00' });
});

test("RMS/Moody's EDM location export: coverage 1, 2, 3 values are building, contents, business interruption", () => {
  const r = readOk([
    'ACCNTNUM,LOCNUM,LOCNAME,STREETNAME,CITY,STATECODE,POSTALCODE,CNTRYCODE,Latitude,Longitude,BLDGCLASS,OCCTYPE,NUMSTORIES,YEARBUILT,EQCV1VAL,EQCV2VAL,EQCV3VAL,WSCV1VAL,WSCV2VAL,WSCV3VAL',
    'ACC1,1,Tower,100 Market St,San Francisco,CA,94105,US,37.79,-122.40,Reinforced concrete,Office,30,1990,5000000,1000000,750000,5000000,1000000,750000',
  ].join('\n'), 'USD');
  const [l] = r.exposure.locations;
  assert.deepEqual(l?.values, { buildings: '5000000.00', contents: '1000000.00', business_interruption: '750000.00', total: '6750000.00' });
  assert.deepEqual(l?.address, { street: '100 Market St', city: 'San Francisco', area: 'CA', postcode: '94105', country: 'US' });
  assert.deepEqual(l?.oed, { AccNumber: 'ACC1', LocName: 'Tower' });
  assert.equal(l?.storeys, 30);
  // The windstorm copies of the same coverages are disclosed, never added a second time.
  assert.deepEqual(r.exposure.source_fidelity.unmapped_columns.map((c) => [c.column, c.reason]), [
    ['WSCV1VAL', "a second column for buildings; 'EQCV1VAL' is read"],
    ['WSCV2VAL', "a second column for contents; 'EQCV2VAL' is read"],
    ['WSCV3VAL', "a second column for business_interruption; 'EQCV3VAL' is read"],
  ]);
});

test('OED and plain-English value headers', () => {
  const oedFile = readOk('PortNumber,AccNumber,LocNumber,LocName,BuildingTIV,OtherTIV,ContentsTIV,BITIV,BIPOI\nP1,A1,L1,Depot,100,5,20,30,180\n', 'EUR');
  assert.deepEqual(oedFile.exposure.locations[0]?.values, { buildings: '100.00', other: '5.00', contents: '20.00', business_interruption: '30.00', total: '155.00' });
  // A file naming PortNumber, AccNumber and LocNumber is an OED location file: every OED field it
  // gave is kept verbatim, under its OED name and type, beside the canonical members read from it.
  assert.deepEqual(oedFile.exposure.locations[0]?.oed, { PortNumber: 'P1', AccNumber: 'A1', LocNumber: 'L1', LocName: 'Depot', BuildingTIV: 100, OtherTIV: 5, ContentsTIV: 20, BITIV: 30, BIPOI: 180 });
  assert.equal(oedFile.exposure.locations[0]?.bi_period_days, 180);
  const plain = readOk('Location Name,Building Sum Insured,Contents Sum Insured,Business Interruption Sum Insured,Other Structures\nShop,100,20,30,5\n', 'GBP');
  assert.deepEqual(plain.exposure.locations[0]?.values, { buildings: '100.00', contents: '20.00', business_interruption: '30.00', other: '5.00', total: '155.00' });
  assert.deepEqual(plain.exposure.locations[0]?.oed, { LocName: 'Shop' });
  const gross = readOk('Ref,Buildings,Gross Profit\n1,100,40\n', 'GBP');
  assert.equal(gross.exposure.locations[0]?.values.business_interruption, '40.00');
});

test('amounts carry their currency\'s ISO 4217 minor unit: JPY 0, BHD and KWD 3, CLF 4', () => {
  const jpy = readOk('Ref,Buildings,Contents\n1,"1,200,000",300000.5\n2,800000,0\n', 'JPY');
  assert.deepEqual(jpy.exposure.locations.map((l) => l.values), [
    { buildings: '1200000', contents: '300001', total: '1500001' },
    { buildings: '800000', contents: '0', total: '800000' },
  ]);
  assert.deepEqual(jpy.exposure.values, { buildings: '2000000', contents: '300001', total: '2300001' });
  assert.deepEqual(jpy.exposure.source_fidelity.notes, ["1 value(s) had more decimal places than JPY's ISO 4217 minor unit (0) and were rounded half-up"]);

  const bhd = readOk('Ref,TIV (BHD)\n1,1200.125\n2,0.5\n');
  assert.equal(bhd.exposure.currency, 'BHD');
  assert.deepEqual(bhd.exposure.locations.map((l) => l.values.total), ['1200.125', '0.500']);
  assert.equal(bhd.exposure.values.total, '1200.625');

  // KWD from a currency column, with JPY on another row: each location in its own minor unit.
  const mixed = readOk('Ref,TIV,Currency\n1,2500.750,KWD\n2,1000000,JPY\n3,10.0005,KWD\n');
  assert.deepEqual(mixed.exposure.locations.map((l) => [l.currency, l.values.total]), [['KWD', '2500.750'], ['JPY', '1000000'], ['KWD', '10.001']]);
  assert.deepEqual(mixed.exposure.values_by_currency, { JPY: { total: '1000000' }, KWD: { total: '2510.751' } });

  // A currency stated only in a footer still sets the decimals of every row above it.
  const footer = readOk('Ref,TIV\n1,100.1234\n2,200\nAll values in KWD\n');
  assert.equal(footer.exposure.currency, 'KWD');
  assert.deepEqual(footer.exposure.locations.map((l) => [l.currency, l.values.total]), [['KWD', '100.123'], ['KWD', '200.000']]);
  assert.equal(footer.exposure.values.total, '300.123');

  const clf = readOk('Ref,TIV\n1,12.3456\n', 'CLF');
  assert.equal(clf.exposure.locations[0]?.values.total, '12.3456');
  // No currency at all: two places, as before.
  assert.equal(readOk('Ref,TIV\n1,12.345\n').exposure.locations[0]?.values.total, '12.35');
});

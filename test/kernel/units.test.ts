// One table of units: the backtest, data quality and the feed helpers read the same factors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseConversion, nativeUnit, statedUnit, NATIVE_UNITS, STATED_UNITS } from '../../src/kernel/units.js';
import { siConversion, toSi, screenNative } from '../../src/domain/quality.js';
import { seriesConversion } from '../../src/domain/triggers/index-series.js';
import { toStandardUnits } from '../../src/feeds/series.js';

test('every native unit reads as a stated unit of its own dimension', () => {
  for (const [name, n] of Object.entries(NATIVE_UNITS)) {
    assert.equal(STATED_UNITS[n.whole]?.dimension, n.dimension, name);
    assert.deepEqual(seriesConversion(name, null), { native_unit: name, unit: n.whole, factor: n.base / STATED_UNITS[n.whole]!.base });
  }
  assert.equal(baseConversion('hundredths of inches')!.factor, 0.254);
  assert.deepEqual(baseConversion('ft3/s'), { factor: 0.028316846592, unit: 'm3/s' });
  assert.equal(statedUnit('kt')!.base, 1852 / 3600);
});

test('a name that is no unit is unknown everywhere, inherited object members included', () => {
  for (const name of ['furlongs', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    assert.equal(nativeUnit(name), undefined, name);
    assert.equal(statedUnit(name), undefined, name);
    assert.equal(baseConversion(name), null, name);
    assert.equal(siConversion(name), null, name);
    assert.equal(toSi(name, 3), null, name);
    // An unknown unit screens only the sign, as a negative reading is impossible in any unit.
    assert.equal(screenNative('PRCP', name, 5_000_000), null, name);
    assert.ok('fault' in seriesConversion(name, null), name);
  }
});

test('the feed helper converts every native unit the parsers name into its base unit', () => {
  // Hand-made one-day series.
  const day = (unit: string, value: number) => ({ source_id: 's', variable: 'PRCP', unit, days: [{ date: '2020-01-01', value }], quirks: [] });
  const inches = toStandardUnits(day('hundredths of inches', 150));
  assert.equal(inches.unit, 'mm');
  assert.ok(Math.abs(inches.days[0]!.value! - 38.1) < 1e-9);
  const mm = day('mm', 4);
  assert.equal(toStandardUnits(mm), mm);
});

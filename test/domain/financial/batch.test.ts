// The batch evaluation (src/domain/financial/batch.ts) where it reaches beyond the items an event
// touches: a node without loss whose minimum deductible still moves the running amounts shares the
// change evenly over all its items, untouched ones included, and a later node across locations (a
// policy coverage with a maximum deductible) sums what its items carry. The terms are made here for
// the test; the figures are checked against the full evaluation (dense-reference.ts) and by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildInsurance, type FmLocation } from '../../../src/domain/financial/insurance.js';
import { TermsBatch } from '../../../src/domain/financial/batch.js';
import { buildReinsurance } from '../../../src/domain/financial/reinsurance.js';
import { computeInsured, computeNet, insuranceScratch, reinsuranceScratch } from './dense-reference.js';

// L1: building 1,000 and contents 1,000. Building: deductible 100, limit 50; site PD: franchise 100;
// site all: minimum deductible 300. Policy: contents maximum deductible 10.
const locations: FmLocation[] = [
  { oed: { PortNumber: 'P', AccNumber: 'A', LocNumber: 'L1', LocDed1Building: 100, LocLimit1Building: 50, LocDed5PD: 100, LocDedCode5PD: 2, LocMinDed6All: 300 }, tiv: [1000, 0, 1000, 0] as [number, number, number, number] },
  { oed: { PortNumber: 'P', AccNumber: 'A', LocNumber: 'L2' }, tiv: [1000, 0, 1000, 0] as [number, number, number, number] },
];
const accounts = [{ PortNumber: 'P', AccNumber: 'A', PolNumber: '1', PolMaxDed3Contents: 10 }];
const p = buildInsurance({ locations, accounts, perilGroups: new Map() });

test('a node without loss shares its running amounts with untouched items, as the full evaluation does', () => {
  // Column 0: only L1's building is hit (200); column 1: L1's building and L2's contents (200 and 30).
  const gu = [new Float64Array(p.itemTiv.length), new Float64Array(p.itemTiv.length)];
  gu[0]![0] = 200;
  gu[1]![0] = 200;
  gu[1]![3] = 30;
  const batch = new TermsBatch(p, null, 2);
  for (let c = 0; c < 2; c++) gu[c]!.forEach((v, i) => { if (v > 0) batch.add(i, c, v); });
  batch.run();
  const dense = new Float64Array(p.rowItem.length);
  const s = insuranceScratch(p);
  for (let c = 0; c < 2; c++) {
    computeInsured(p, gu[c]!, dense, s);
    const got = new Float64Array(p.rowItem.length);
    for (let q = 0; q < batch.rowCount; q++) got[batch.rows[q]!] = batch.il[q * 2 + c]!;
    dense.forEach((v, r) => assert.ok(Math.abs(got[r]! - v) <= 1e-9 * Math.max(1, v), `column ${c} row ${r}: ${got[r]} vs ${v}`));
  }
  // By hand: column 0, building 200 − 100 = 100, limited to 50 (50 above the limit); the franchise
  // keeps the 50 (deductible 150, loss 0); the site minimum of 300 takes the 50 above the limit
  // (deductible 200) at a node without loss, shared evenly: L1's untouched contents carries deductible
  // 25 and −25 above limits, with no room under limits, so the policy's contents maximum of 10 gives
  // nothing back: insured 0. Column 1 adds L2's contents, 30 without terms of its own: the contents
  // node (deductible 25 > 10) gives back nothing more than the room left (0): insured 30.
  assert.ok(Math.abs(batch.ilTotal[0]!) <= 1e-9, `insured ${batch.ilTotal[0]}`);
  assert.ok(Math.abs(batch.ilTotal[1]! - 30) <= 1e-9, `insured ${batch.ilTotal[1]}`);
});

// An event touching one item of a portfolio-wide QS and a per-location XL: the batch groups the one
// touched row by risk rather than walking every row in the contracts' scope. The event is L2's
// building at 500 (L2 has no terms of its own; the policy's contents maximum does not reach it).
test('an event touching a few rows of wide contracts agrees with the full evaluation, and by hand', () => {
  const ri = buildReinsurance(p, {
    riInfo: [
      { ReinsNumber: 1, ReinsType: 'QS', CededPercent: 0.3, RiskLevel: 'SEL', InuringPriority: 1 },
      { ReinsNumber: 2, ReinsType: 'PR', RiskLevel: 'LOC', RiskAttachment: 200, RiskLimit: 100, InuringPriority: 2 },
    ],
    riScope: [{ ReinsNumber: 1, PortNumber: 'P' }, { ReinsNumber: 2, PortNumber: 'P' }],
    locations, accounts, perilGroups: new Map(),
  });
  const gu = new Float64Array(p.itemTiv.length);
  gu[2] = 500; // L2's building
  const batch = new TermsBatch(p, ri, 1);
  batch.add(2, 0, 500);
  batch.run();
  const il = new Float64Array(p.rowItem.length);
  const net = new Float64Array(p.rowItem.length);
  computeInsured(p, gu, il, insuranceScratch(p));
  computeNet(ri, il, net, reinsuranceScratch(il.length));
  assert.equal(batch.rowCount, 1);
  assert.ok(Math.abs(batch.il[0]! - il[batch.rows[0]!]!) <= 1e-9 && Math.abs(batch.ri[0]! - net[batch.rows[0]!]!) <= 1e-9, `${batch.il[0]} ${batch.ri[0]}`);
  // By hand: insured 500; the QS cedes 150, leaving 350; the XL takes min(max(350 − 200, 0), 100) = 100; net 250.
  assert.ok(Math.abs(batch.ilTotal[0]! - 500) <= 1e-9, `insured ${batch.ilTotal[0]}`);
  assert.ok(Math.abs(batch.riTotal[0]! - 250) <= 1e-9, `net ${batch.riTotal[0]}`);
});

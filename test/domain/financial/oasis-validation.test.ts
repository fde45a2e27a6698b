// Whole policies against oasislmf's published expected results: rows copied from the public
// OasisLMF/OasisLMF repository's validation/ folders (named per case below; only the accounts named,
// and only the columns with a value), run through the financial module with every coverage's
// ground-up loss TIV × loss factor (as `oasislmf exposure run` does), and compared per location with
// loss_il (and loss_ri) of its expected/loc_summary.csv. Tolerance: 1e-5 relative or 0.05, since
// oasislmf computes in single precision (its figures carry float32 rounding, e.g. 81630001.0 for 81,630,000).
// loc_summary's loss_gul sums the ground-up loss over a location's policy layers; the comparison is of
// insured and net losses only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { buildInsurance, type InsuranceProgramme } from '../../../src/domain/financial/insurance.js';
import { buildReinsurance, type ReinsuranceProgramme } from '../../../src/domain/financial/reinsurance.js';
import { TermsBatch } from '../../../src/domain/financial/batch.js';
import { computeInsured, computeNet, insuranceScratch, reinsuranceScratch } from './dense-reference.js';
import type { OedRecord } from '../../../src/domain/financial/oed-fields.js';

type Row = Record<string, string>;
const csv = (t: string): Row[] => parse(t, { columns: true, skip_empty_lines: true }) as Row[];
/** A CSV row as the risk object keeps OED records: numbers as numbers, blanks left out. */
const record = (r: Row): OedRecord => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== '').map(([k, v]) => [k, /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v]));

// OED peril groups from the pinned spec (feeds/oed-spec): group → the single perils it covers.
const PERIL_GROUPS = new Map<string, string[]>();
for (const r of csv(readFileSync(new URL('../../../feeds/oed-spec/2026-07-08/PerilsCovered.csv', import.meta.url), 'utf8'))) {
  const list = PERIL_GROUPS.get(r['PerilsCovered']!) ?? [];
  list.push(r['Peril']!);
  PERIL_GROUPS.set(r['PerilsCovered']!, list);
}

/**
 * The batch (columns side by side, only the items each column touches) against the full evaluation
 * one column at a time (dense-reference.ts), every output row to 1e-9 relative. Columns, made here:
 * every item at 40% of its TIV; a pseudo-random half of the items at pseudo-random fractions; a
 * third at small fractions, where deductibles take whole nodes' losses (minimum deductibles then
 * move running amounts on nodes without loss); and one empty column.
 */
function agreesWithDense(p: InsuranceProgramme, ri: ReinsuranceProgramme | null): void {
  const C = 4;
  const n = p.itemTiv.length;
  let seed = 12345;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const gu = Array.from({ length: C }, () => new Float64Array(n));
  for (let i = 0; i < n; i++) {
    gu[0]![i] = 0.4 * p.itemTiv[i]!;
    if (next() < 0.5) gu[1]![i] = next() * p.itemTiv[i]!;
    if (next() < 0.33) gu[2]![i] = 0.002 * next() * p.itemTiv[i]!;
  }
  const batch = new TermsBatch(p, ri, C);
  // Added twice over two events: the second run must not see the first's losses.
  for (const round of [0, 1]) {
    batch.clear();
    for (let c = 0; c < C; c++) for (let i = 0; i < n; i++) if (gu[c]![i]! > 0) batch.add(i, c, gu[c]![i]! * (round === 0 ? 0.5 : 1));
    if (round === 0) batch.run();
  }
  batch.run();
  sameAsDense(p, ri, batch, gu);
  // Events that touch few items (a tenth, then a twentieth), where the batch groups the touched
  // items by node instead of walking every node of a level.
  const sparse = [new Float64Array(n), new Float64Array(n)];
  for (let i = 0; i < n; i++) {
    if (next() < 0.1) sparse[0]![i] = next() * p.itemTiv[i]!;
    if (next() < 0.05) sparse[1]![i] = next() * p.itemTiv[i]!;
  }
  const few = new TermsBatch(p, ri, 2);
  for (let c = 0; c < 2; c++) for (let i = 0; i < n; i++) if (sparse[c]![i]! > 0) few.add(i, c, sparse[c]![i]!);
  few.run();
  sameAsDense(p, ri, few, sparse);
}

function sameAsDense(p: InsuranceProgramme, ri: ReinsuranceProgramme | null, batch: TermsBatch, gu: Float64Array[]): void {
  const C = gu.length;
  const rows = p.rowItem.length;
  const il = new Float64Array(rows);
  const net = new Float64Array(rows);
  const s = insuranceScratch(p);
  const rs = reinsuranceScratch(rows);
  for (let c = 0; c < C; c++) {
    computeInsured(p, gu[c]!, il, s);
    if (ri) computeNet(ri, il, net, rs);
    else net.set(il);
    const got = new Float64Array(rows);
    const gotNet = new Float64Array(rows);
    for (let q = 0; q < batch.rowCount; q++) {
      got[batch.rows[q]!] = batch.il[q * C + c]!;
      gotNet[batch.rows[q]!] = batch.ri[q * C + c]!;
    }
    let tIl = 0;
    let tNet = 0;
    for (let r = 0; r < rows; r++) {
      const tol = (v: number) => 1e-9 * Math.max(1, Math.abs(v));
      assert.ok(Math.abs(got[r]! - il[r]!) <= tol(il[r]!), `column ${c} row ${r}: insured ${got[r]} vs full evaluation ${il[r]}`);
      assert.ok(Math.abs(gotNet[r]! - net[r]!) <= tol(net[r]!), `column ${c} row ${r}: net ${gotNet[r]} vs full evaluation ${net[r]}`);
      tIl += il[r]!;
      tNet += net[r]!;
    }
    assert.ok(Math.abs(batch.ilTotal[c]! - tIl) <= 1e-9 * Math.max(1, tIl));
    assert.ok(Math.abs(batch.riTotal[c]! - tNet) <= 1e-9 * Math.max(1, tNet));
  }
}

interface Case { location: string; account: string; ri_info?: string; ri_scope?: string; loc_summary: string; loss_factors?: string }

function check(c: Case): number {
  const locs = csv(c.location).map(record);
  const accounts = csv(c.account).map(record);
  const locations = locs.map((l) => ({ oed: l, tiv: [Number(l.BuildingTIV ?? 0), Number(l.OtherTIV ?? 0), Number(l.ContentsTIV ?? 0), Number(l.BITIV ?? 0)] as [number, number, number, number] }));
  const p = buildInsurance({ locations, accounts, perilGroups: PERIL_GROUPS });
  const ri = c.ri_info ? buildReinsurance(p, { riInfo: csv(c.ri_info).map(record), riScope: csv(c.ri_scope!).map(record), locations, accounts, perilGroups: PERIL_GROUPS }) : null;
  const factors = c.loss_factors ? csv(c.loss_factors).map((r) => Number(r.loss_factor)) : [1];
  // Every loss factor a column of one batch, as a lane runs an event's samples.
  const batch = new TermsBatch(p, ri, factors.length);
  factors.forEach((factor, fi) => p.itemTiv.forEach((t, i) => batch.add(i, fi, t * factor)));
  batch.run();
  agreesWithDense(p, ri);
  const il = new Float64Array(p.rowItem.length);
  const net = new Float64Array(p.rowItem.length);
  let compared = 0;
  factors.forEach((_, fi) => {
    il.fill(0);
    net.fill(0);
    for (let s = 0; s < batch.rowCount; s++) {
      il[batch.rows[s]!] = batch.il[s * factors.length + fi]!;
      net[batch.rows[s]!] = ri ? batch.ri[s * factors.length + fi]! : il[batch.rows[s]!]!;
    }
    const factor = factors[fi]!;
    const byLoc = new Map<string, { il: number; ri: number }>();
    for (let r = 0; r < il.length; r++) {
      const l = locs[p.itemLocation[p.rowItem[r]!]!]!;
      const key = `${l.PortNumber}|${l.AccNumber}|${l.LocNumber}`;
      const v = byLoc.get(key) ?? { il: 0, ri: 0 };
      v.il += il[r]!;
      v.ri += net[r]!;
      byLoc.set(key, v);
    }
    for (const e of csv(c.loc_summary)) {
      if (e.loss_factor_idx !== undefined && Number(e.loss_factor_idx) !== fi) continue;
      const key = `${e.PortNumber}|${e.AccNumber}|${e.LocNumber}`;
      const mine = byLoc.get(key) ?? { il: 0, ri: 0 };
      const tol = (x: number) => Math.max(0.05, 1e-5 * Math.abs(x));
      assert.ok(Math.abs(mine.il - Number(e.loss_il)) <= tol(Number(e.loss_il)), `${key} factor ${factor}: il ${mine.il} vs oasislmf ${e.loss_il}`);
      if (e.loss_ri !== undefined) assert.ok(Math.abs(mine.ri - Number(e.loss_ri)) <= tol(Number(e.loss_ri)), `${key}: ri ${mine.ri} vs oasislmf ${e.loss_ri}`);
      compared++;
    }
  });
  return compared;
}

// From OasisLMF/OasisLMF validation/insurance (location.csv, account.csv, expected/loc_summary.csv): accounts fm17/1 (policy deductible % of loss with minimum and maximum), fm41/1 (location deductibles % of TIV and % of loss under a condition with a minimum deductible and limit), Q4/14 (two policy layers with participation over a condition, untagged locations), Q1/1 (location blanket deductible), fm12/105449 (four layers, three conditions, location minimum deductibles and sub-limits).
test('insurance: policy, condition, location and layer terms agree with oasislmf', () => {
  const c: Case = {
    location: `PortNumber,AccNumber,LocNumber,LocPerilsCovered,BuildingTIV,OtherTIV,ContentsTIV,BITIV,CondTag,LocPeril,LocDed1Building,LocDedType1Building,LocDed6All,LocLimit1Building,LocLimit3Contents,LocMinDed6All
Q1,1,1,AA1,71000000,0,11000000,9200000,1,AA1,0,0,9570000,0,0,0
Q1,1,2,AA1,89000000,0,29000000,9800000,1,AA1,0,0,25130000,0,0,0
Q4,14,27,AA1,77000000,0,5000000,9600000,14,AA1,0,0,15570000,0,0,0
Q4,14,28,AA1,48000000,0,38000000,5200000,14,AA1,0,0,21790000,0,0,0
Q4,14,167,AA1,77000000,0,5000000,9600000,,AA1,0,0,15570000,0,0,0
Q4,14,168,AA1,48000000,0,38000000,5200000,,AA1,0,0,21790000,0,0,0
fm12,105449,23039308,AA1,5151251,0,9218612,6971414,1160,AA1,0,0,0,700000000,700000000,0
fm12,105449,23039309,AA1,14278941,0,11579501,7742781,1160,AA1,0,0,0,700000000,700000000,0
fm12,105449,23039311,AA1,3545116,0,12082515,3651644,1160,AA1,0,0,0,700000000,700000000,0
fm12,105449,23039320,AA1,4451091,0,7620574,3947225,1160,AA1,0,0,0,700000000,700000000,0
fm12,105449,23039326,AA1,8468889,0,2291251,1319339,1160,AA1,0,0,0,700000000,700000000,0
fm12,105449,23039331,AA1,3348165,0,2803085,1389718,1160,AA1,0,0,0,700000000,700000000,0
fm12,105449,23039338,AA1,7385659,0,5205069,3064532,1160,AA1,0,0,0,700000000,700000000,0
fm12,105449,23039310,AA1,174639,0,138330,0,1161,AA1,0,0,0,700000000,700000000,25000
fm12,105449,23039324,AA1,0,0,429307,0,1161,AA1,0,0,0,700000000,700000000,25000
fm12,105449,23039357,AA1,0,0,81651,0,1161,AA1,0,0,0,700000000,700000000,25000
fm12,105449,23039389,AA1,0,0,2626101,0,1161,AA1,0,0,0,700000000,700000000,78783.03
fm12,105449,23039390,AA1,0,0,42247,0,1161,AA1,0,0,0,700000000,700000000,25000
fm12,105449,23039729,AA1,0,0,2988068,0,1161,AA1,0,0,0,700000000,700000000,89642.04
fm12,105449,23039730,AA1,0,0,21108,0,1161,AA1,0,0,0,700000000,700000000,25000
fm12,105449,23039811,AA1,0,0,300000,2556066.1,1161,AA1,0,0,0,700000000,700000000,85681.983
fm12,105449,23039853,AA1,0,0,4672794,0,1161,AA1,0,0,0,700000000,700000000,140183.82
fm12,105449,23039855,AA1,0,0,181995,0,1161,AA1,0,0,0,700000000,700000000,25000
fm12,105449,23039428,AA1,13583065,0,1839750,0,1163,AA1,0,0,0,700000000,700000000,462684.45
fm17,1,1,AA1,1000000,100000,50000,20000,0,AA1,0,0,0,0,0,0
fm17,1,2,AA1,1000000,100000,50000,20000,0,AA1,0,0,0,0,0,0
fm41,1,1,AA1,1000000,0,0,0,1,AA1,10000,0,0,0,0,0
fm41,1,2,AA1,1000000,0,0,0,1,AA1,0.01,2,0,0,0,0
fm41,1,3,AA1,1000000,0,0,0,1,AA1,0.05,1,0,0,0,0
fm41,1,4,AA1,2000000,0,0,0,0,AA1,15000,0,0,0,0,0
fm41,1,5,AA1,2000000,0,0,0,0,AA1,10000,0,0,0,0,0
fm41,1,6,AA1,2000000,0,0,0,0,AA1,0.1,2,0,0,0,0
`,
    account: `PortNumber,AccNumber,PolNumber,PolPerilsCovered,LayerParticipation,LayerLimit,LayerAttachment,PolPeril,PolDed6All,PolDedType6All,PolMinDed6All,PolMaxDed6All,PolLimit6All,CondPeril,CondTag,CondNumber,CondMinDed6All,CondLimit6All,CondPriority
Q1,1,1,AA1,1,0,0,AA1,0,0,0,0,0,AA1,1,1,0,0,1
Q4,14,14_1,AA1,0.45,42450000,4500000,AA1,0,0,0,0,0,AA1,14,14,10960000,16540000,1
Q4,14,14_2,AA1,0.45,21225000,46950000,AA1,0,0,0,0,0,AA1,14,14,10960000,16540000,1
fm12,105449,477353,AA1,0.15,5700000,0,AA1,0,0,10000,0,0,AA1,1160,1160,10000,100000000,1
fm12,105449,477353,AA1,0.15,5700000,0,AA1,0,0,10000,0,0,AA1,1161,1161,600000,15000000,1
fm12,105449,477353,AA1,0.15,5700000,0,AA1,0,0,10000,0,0,AA1,1163,1163,600000,15000000,1
fm12,105449,477354,AA1,0.15,4300000,5700000,AA1,0,0,10000,0,0,AA1,1160,1160,10000,100000000,1
fm12,105449,477354,AA1,0.15,4300000,5700000,AA1,0,0,10000,0,0,AA1,1161,1161,600000,15000000,1
fm12,105449,477354,AA1,0.15,4300000,5700000,AA1,0,0,10000,0,0,AA1,1163,1163,600000,15000000,1
fm12,105449,477355,AA1,0.12,15000000,10000000,AA1,0,0,10000,0,0,AA1,1160,1160,10000,100000000,1
fm12,105449,477355,AA1,0.12,15000000,10000000,AA1,0,0,10000,0,0,AA1,1161,1161,600000,15000000,1
fm12,105449,477355,AA1,0.12,15000000,10000000,AA1,0,0,10000,0,0,AA1,1163,1163,600000,15000000,1
fm12,105449,477356,AA1,0.22,5000000,25000000,AA1,0,0,10000,0,0,AA1,1160,1160,10000,100000000,1
fm12,105449,477356,AA1,0.22,5000000,25000000,AA1,0,0,10000,0,0,AA1,1161,1161,600000,15000000,1
fm12,105449,477356,AA1,0.22,5000000,25000000,AA1,0,0,10000,0,0,AA1,1163,1163,600000,15000000,1
fm12,105449,477357,AA1,0.22,20000000,30000000,AA1,0,0,10000,0,0,AA1,1160,1160,10000,100000000,1
fm12,105449,477357,AA1,0.22,20000000,30000000,AA1,0,0,10000,0,0,AA1,1161,1161,600000,15000000,1
fm12,105449,477357,AA1,0.22,20000000,30000000,AA1,0,0,10000,0,0,AA1,1163,1163,600000,15000000,1
fm12,105449,477358,AA1,0.1,50000000,50000000,AA1,0,0,10000,0,0,AA1,1160,1160,10000,100000000,1
fm12,105449,477358,AA1,0.1,50000000,50000000,AA1,0,0,10000,0,0,AA1,1161,1161,600000,15000000,1
fm12,105449,477358,AA1,0.1,50000000,50000000,AA1,0,0,10000,0,0,AA1,1163,1163,600000,15000000,1
fm12,105449,477359,AA1,0.1,100000000,100000000,AA1,0,0,10000,0,0,AA1,1160,1160,10000,100000000,1
fm12,105449,477359,AA1,0.1,100000000,100000000,AA1,0,0,10000,0,0,AA1,1161,1161,600000,15000000,1
fm12,105449,477359,AA1,0.1,100000000,100000000,AA1,0,0,10000,0,0,AA1,1163,1163,600000,15000000,1
fm17,1,1,AA1,1,0,0,AA1,0.15,1,100000,150000,0,AA1,0,0,0,0,1
fm41,1,1,AA1,1,0,0,AA1,0,0,0,0,1500000,AA1,1,1,50000,250000,1
`,
    loc_summary: `PortNumber,AccNumber,LocNumber,loss_gul,loss_il
Q1,1,1,91200000.0,81629990.5
Q1,1,2,127800000.0,102669995.0
Q4,14,167,183200000.0,13449465.23
Q4,14,168,182400000.0,12278408.39
Q4,14,27,183200000.0,1529525.31
Q4,14,28,182400000.0,1396348.02
fm12,105449,23039308,149388939.0,2203338.3899999997
fm12,105449,23039309,235208561.0,3469092.9800000004
fm12,105449,23039310,2190783.0,37154.34
fm12,105449,23039311,134954925.0,1990451.27
fm12,105449,23039320,112132230.0,1653839.1
fm12,105449,23039324,3005149.0,52164.490000000005
fm12,105449,23039326,84556353.0,1247122.2899999998
fm12,105449,23039331,52786776.0,778552.66
fm12,105449,23039338,109586820.0,1616296.8099999998
fm12,105449,23039357,571557.0,7309.220000000001
fm12,105449,23039389,18382707.0,328660.06
fm12,105449,23039390,295729.0,2225.24
fm12,105449,23039428,107959705.0,1920842.98
fm12,105449,23039729,20916476.0,373960.74
fm12,105449,23039730,147756.0,0.0
fm12,105449,23039811,19992462.0,357440.46
fm12,105449,23039853,32709558.0,584806.3200000001
fm12,105449,23039855,1273965.0,20255.809999999998
fm17,1,1,1170000.0,1094999.99
fm17,1,2,1170000.0,1094999.99
fm41,1,1,1000000.0,21030.12
fm41,1,2,1000000.0,21030.12
fm41,1,3,1000000.0,20180.42
fm41,1,4,2000000.0,494190.84
fm41,1,5,2000000.0,495435.69
fm41,1,6,2000000.0,448132.81
`,
  };
  assert.equal(check(c), 32);
});

// From OasisLMF/OasisLMF validation/insurance_account (location.csv, account.csv, loss_factors.csv, expected/loc_summary.csv): accounts acc100, acc97 (account deductible % of loss with minimum, maximum and limit over two layers, AccParticipation) and acc104 (two policies without terms), at loss factors 0.25, 0.5, 0.75 and 1.
test('insurance_account: account terms over policy layers, at four loss factors agree with oasislmf', () => {
  const c: Case = {
    location: `PortNumber,AccNumber,LocNumber,LocPerilsCovered,BuildingTIV,LocPeril,LocDed6All
acc97,acc97,10002082046,AA1,1700000,AA1,0
acc97,acc97,10002082047,AA1,1700000,AA1,0
acc100,acc100,10002082046,AA1,1700000,AA1,5000
acc100,acc100,10002082047,AA1,1700000,AA1,5000
acc104,acc104,10002082046,AA1,1700000,AA1,5000
acc104,acc104,10002082047,AA1,1700000,AA1,5000
`,
    account: `PortNumber,AccNumber,PolNumber,PolPerilsCovered,LayerParticipation,LayerLimit,LayerAttachment,PolPeril,CondPeril,CondPriority,AccPeril,AccDed6All,AccDedType6All,AccMinDed6All,AccMaxDed6All,AccLimit6All,AccParticipation
acc97,acc97,Layer1,AA1,0.3,500000,500000,AA1,AA1,1,AA1,0.1,1,20000,60000,750000,0.5
acc97,acc97,Layer2,AA1,0.3,100000000,1000000,AA1,AA1,1,AA1,0.1,1,20000,60000,750000,0.5
acc100,acc100,Layer1,AA1,0.3,500000,500000,AA1,AA1,1,AA1,0.1,1,20000,60000,0,0.5
acc100,acc100,Layer2,AA1,0.3,100000000,1000000,AA1,AA1,1,AA1,0.1,1,20000,60000,0,0.5
acc104,acc104,Layer1,AA1,,,,AA1,AA1,1,AA1,,,,,,0.5
acc104,acc104,Layer2,AA1,,,,AA1,AA1,1,AA1,,,,,,0.5
`,
    loc_summary: `PortNumber,AccNumber,LocNumber,loss_factor_idx,loss_gul,loss_il
acc100,acc100,10002082046,0,850000.0,22950.0
acc100,acc100,10002082046,1,1700000.0,80325.0
acc100,acc100,10002082046,2,2550000.0,143000.0
acc100,acc100,10002082046,3,3400000.0,206750.00999999998
acc100,acc100,10002082047,0,850000.0,22950.0
acc100,acc100,10002082047,1,1700000.0,80325.0
acc100,acc100,10002082047,2,2550000.0,143000.0
acc100,acc100,10002082047,3,3400000.0,206750.00999999998
acc104,acc104,10002082046,0,850000.0,210000.0
acc104,acc104,10002082046,1,1700000.0,422500.0
acc104,acc104,10002082046,2,2550000.0,635000.0
acc104,acc104,10002082046,3,3400000.0,847500.0
acc104,acc104,10002082047,0,850000.0,210000.0
acc104,acc104,10002082047,1,1700000.0,422500.0
acc104,acc104,10002082047,2,2550000.0,635000.0
acc104,acc104,10002082047,3,3400000.0,847500.0
acc97,acc97,10002082046,0,850000.0,21250.0
acc97,acc97,10002082046,1,1700000.0,81000.0
acc97,acc97,10002082046,2,2550000.0,138750.01
acc97,acc97,10002082046,3,3400000.0,187500.01
acc97,acc97,10002082047,0,850000.0,21250.0
acc97,acc97,10002082047,1,1700000.0,81000.0
acc97,acc97,10002082047,2,2550000.0,138750.01
acc97,acc97,10002082047,3,3400000.0,187500.01
`,
    loss_factors: `loss_factor
0.25
0.5
0.75
1
`,
  };
  assert.equal(check(c), 24);
});

// From OasisLMF/OasisLMF validation/insurance_conditions (location.csv, account.csv, expected/loc_summary.csv): accounts sc9/1, sc11/17, sc16/sc16 and sc18/B (conditions by priority, a location under several conditions, CondClass).
test('insurance_conditions: condition hierarchies agree with oasislmf', () => {
  const c: Case = {
    location: `PortNumber,AccNumber,LocNumber,LocPerilsCovered,BuildingTIV,CondTag,LocPeril,LocDed6All
sc9,1,1,AA1,750000.0,1,AA1,0.0
sc9,1,1,AA1,750000.0,4,AA1,0.0
sc9,1,16,AA1,1500000.0,2,AA1,0.0
sc9,1,16,AA1,1500000.0,4,AA1,0.0
sc9,1,31,AA1,7500000.0,3,AA1,0.0
sc9,1,31,AA1,7500000.0,4,AA1,0.0
sc9,1,45,AA1,7500000.0,4,AA1,0.0
sc9,1,56,AA1,7500000.0,0,AA1,0.0
sc11,17,35603,AA1,75000000.0,577328,AA1,0.0
sc11,17,35608,AA1,75000000.0,577328,AA1,0.0
sc11,17,35608,AA1,75000000.0,577329,AA1,0.0
sc11,17,35609,AA1,75000000.0,577328,AA1,0.0
sc11,17,35609,AA1,75000000.0,577329,AA1,0.0
sc11,17,35610,AA1,75000000.0,577328,AA1,0.0
sc11,17,35620,AA1,75000000.0,577330,AA1,0.0
sc16,sc16,1,AA1,800000.0,PolA,AA1,100000.0
sc16,sc16,2,AA1,1000000.0,PolA,AA1,100000.0
sc16,sc16,3,AA1,500000.0,PolA,AA1,100000.0
sc16,sc16,4,AA1,300000.0,,AA1,100000.0
sc16,sc16,2,AA1,800000.0,Sublimit_400k,AA1,100000.0
sc18,B,1,AA1,1000000.0,1,AA1,
sc18,B,1,AA1,1000000.0,2,AA1,
sc18,B,2,AA1,1000000.0,,AA1,
sc18,B,2,AA1,1000000.0,2,AA1,
`,
    account: `PortNumber,AccNumber,PolNumber,PolPerilsCovered,LayerParticipation,LayerLimit,PolPeril,PolDed6All,CondPeril,CondTag,CondNumber,CondDed6All,CondLimit6All,CondPriority,CondClass
sc9,1,1,AA1,1.0,200000000,AA1,0,AA1,1,1.0,10000.0,0.0,1.0,0.0
sc9,1,1,AA1,1.0,200000000,AA1,0,AA1,2,2.0,50000.0,0.0,1.0,0.0
sc9,1,1,AA1,1.0,200000000,AA1,0,AA1,3,3.0,100000.0,0.0,1.0,0.0
sc9,1,1,AA1,1.0,200000000,AA1,0,AA1,4,4.0,0.0,50000000.0,2.0,0.0
sc11,17,A,AA1,0.45,50000000,AA1,0,AA1,577328,577328.0,0.0,5000000.0,2.0,0.0
sc11,17,A,AA1,0.45,50000000,AA1,0,AA1,577329,577329.0,50000.0,0.0,1.0,0.0
sc11,17,A,AA1,0.45,50000000,AA1,0,AA1,577330,577330.0,200000.0,25000000.0,1.0,0.0
sc16,sc16,PolA,AA1,0.8,1500000,AA1,100000,AA1,Sublimit_400k,1.0,,400000.0,1.0,0.0
sc16,sc16,PolA,AA1,0.8,1500000,AA1,100000,AA1,PolA,2.0,,,2.0,1.0
sc16,sc16,PolB,AA1,0.6,2500000,AA1,500000,AA1,,,,,,
sc18,B,Pol,AA1,,,AA1,,AA1,1,1.0,10000.0,,1.0,
sc18,B,Pol,AA1,,,AA1,,AA1,2,2.0,50000.0,,2.0,
`,
    loc_summary: `PortNumber,AccNumber,LocNumber,loss_gul,loss_il
sc11,17,35603,75000000.0,562593.75
sc11,17,35608,75000000.0,562406.19
sc11,17,35609,75000000.0,562406.19
sc11,17,35610,75000000.0,562593.75
sc11,17,35620,75000000.0,11250000.0
sc16,sc16,1,1600000.0,847212.1
sc16,sc16,2,2000000.0,715939.4099999999
sc16,sc16,3,1000000.0,484121.24
sc16,sc16,4,600000.0,92727.27
sc18,B,1,1000000.0,965125.62
sc18,B,2,1000000.0,974874.38
sc9,1,1,750000.0,740000.0
sc9,1,16,1500000.0,1450000.0
sc9,1,31,7500000.0,7400000.0
sc9,1,45,7500000.0,7500000.0
sc9,1,56,7500000.0,7500000.0
`,
  };
  assert.equal(check(c), 16);
});

// From OasisLMF/OasisLMF validation/reinsurance1 (location.csv, account.csv, ri_info.csv, ri_scope.csv, expected/loc_summary.csv): contracts 2 (SS by policy, the scope rows' CededPercent), 16 (QS on the portfolio scoped to accounts and locations), 52 (PR by policy with risk attachment and limit) and 107 (CXL by account with occurrence attachment and limit), and every account they scope.
test('reinsurance1: SS, QS, PR and CXL contracts with their scopes agree with oasislmf', () => {
  const c: Case = {
    location: `PortNumber,AccNumber,LocNumber,LocPerilsCovered,BuildingTIV,OtherTIV,ContentsTIV,BITIV,CondTag,LocDed1Building,LocDed2Other,LocDed3Contents,LocDed4BI,LocDed5PD,LocDed6All,LocLimit1Building,LocLimit2Other,LocLimit3Contents,LocLimit4BI,LocLimit5PD,LocLimit6All,LocGroup,LocDedType6All
OEDTest,CX32_05,CX32_05_1,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,CX32_05,CX32_05_2,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,CX32_06,CX32_06_1,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,CX32_06,CX32_06_2,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,PR16_03,PR16_03_1,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,PR16_03,PR16_03_2,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,PR16_03,PR16_03_3,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,PR16_07,PR16_07_1,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,PR16_07,PR16_07_2,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,PR16_07,PR16_07_3,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,PR16_07,PR16_07_4,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,QS05_08,QS05_08_1,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,QS05_08,QS05_08_2,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,QS05_08,QS05_08_3,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,QS05_08,QS05_08_4,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,QS05_09,QS05_09_1,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,1,0
OEDTest,QS05_09,QS05_09_2,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,SS01_03,SS01_03_1,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,SS01_03,SS01_03_2,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,SS01_03,SS01_03_3,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,SS01_07,SS01_07_1,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,SS01_07,SS01_07_2,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,SS01_07,SS01_07_3,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
OEDTest,SS01_07,SS01_07_4,AA1,75000000,0,12000000,13000000,0,0,0,0,0,0,1000000,0,0,0,0,0,0,,0
`,
    account: `PortNumber,AccNumber,PolNumber,PolPerilsCovered,LayerNumber,LayerParticipation,LayerLimit,LayerAttachment,PolDed6All,PolMinDed6All,PolMaxDed6All,PolLimit6All
OEDTest,CX32_05,CX32_05_1,AA1,1,1,0,0,0,0,0,0
OEDTest,CX32_06,CX32_06_1,AA1,1,0.2,0,0,0,0,0,0
OEDTest,PR16_03,PR16_03_1,AA1,1,0.2,10000000,1000000,0,0,0,0
OEDTest,PR16_07,PR16_07_1,AA1,1,1,0,0,0,0,0,0
OEDTest,QS05_08,QS05_08_1,AA1,1,1,0,0,0,0,0,0
OEDTest,QS05_09,QS05_09_1,AA1,1,0.5,0,0,0,0,0,0
OEDTest,SS01_03,SS01_03_1,AA1,1,0.2,10000000,1000000,0,0,0,0
OEDTest,SS01_07,SS01_07_1,AA1,1,1,0,0,0,0,0,0
`,
    ri_info: `ReinsNumber,CededPercent,RiskLimit,RiskAttachment,OccLimit,OccAttachment,PlacedPercent,InuringPriority,ReinsType,RiskLevel
107,0.2,0,0,1500000,1000000,1,1,CXL,ACC
52,0.2,1000000,1000000,0,0,1,1,PR,POL
16,0.2,0,0,0,0,1,1,QS,
2,1,0,0,0,0,1,1,SS,POL
`,
    ri_scope: `ReinsNumber,PortNumber,AccNumber,PolNumber,LocNumber,CededPercent
107,OEDTest,CX32_05,,,
107,OEDTest,CX32_06,,,
52,OEDTest,PR16_03,PR16_03_1,,
52,OEDTest,PR16_07,PR16_07_1,,
16,OEDTest,QS05_08,,QS05_08_1,
16,OEDTest,QS05_08,,QS05_08_2,
16,OEDTest,QS05_09,,,
2,OEDTest,SS01_03,SS01_03_1,,0.1
2,OEDTest,SS01_07,SS01_07_1,,0.2
`,
    loc_summary: `PortNumber,AccNumber,LocNumber,loss_gul,loss_il,loss_ri
OEDTest,CX32_05,CX32_05_1,100000000.0,99000008.0,98375006.0
OEDTest,CX32_05,CX32_05_2,100000000.0,99000008.0,98375006.0
OEDTest,CX32_06,CX32_06_1,100000000.0,19800001.0,19675001.0
OEDTest,CX32_06,CX32_06_2,100000000.0,19800001.0,19675001.0
OEDTest,PR16_03,PR16_03_1,100000000.0,666666.66,666666.66
OEDTest,PR16_03,PR16_03_2,100000000.0,666666.66,666666.66
OEDTest,PR16_03,PR16_03_3,100000000.0,666666.66,666666.66
OEDTest,PR16_07,PR16_07_1,100000000.0,98999999.0,98749995.0
OEDTest,PR16_07,PR16_07_2,100000000.0,98999999.0,98749995.0
OEDTest,PR16_07,PR16_07_3,100000000.0,98999999.0,98749995.0
OEDTest,PR16_07,PR16_07_4,100000000.0,98999999.0,98749995.0
OEDTest,QS05_08,QS05_08_1,100000000.0,98999999.0,79199999.0
OEDTest,QS05_08,QS05_08_2,100000000.0,98999999.0,79199999.0
OEDTest,QS05_08,QS05_08_3,100000000.0,98999999.0,98999999.0
OEDTest,QS05_08,QS05_08_4,100000000.0,98999999.0,98999999.0
OEDTest,QS05_09,QS05_09_1,100000000.0,49500004.0,39600002.0
OEDTest,QS05_09,QS05_09_2,100000000.0,49500004.0,39600002.0
OEDTest,SS01_03,SS01_03_1,100000000.0,666666.66,600000.0
OEDTest,SS01_03,SS01_03_2,100000000.0,666666.66,600000.0
OEDTest,SS01_03,SS01_03_3,100000000.0,666666.66,600000.0
OEDTest,SS01_07,SS01_07_1,100000000.0,98999999.0,79200001.0
OEDTest,SS01_07,SS01_07_2,100000000.0,98999999.0,79200001.0
OEDTest,SS01_07,SS01_07_3,100000000.0,98999999.0,79200001.0
OEDTest,SS01_07,SS01_07_4,100000000.0,98999999.0,79200001.0
`,
  };
  assert.equal(check(c), 24);
});

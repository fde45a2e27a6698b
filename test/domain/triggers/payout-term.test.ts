import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  annualPayout, ladderFraction, linearFraction, occurrencePayout, roundMoney, triggerLevel,
} from '../../../src/domain/triggers/payout.js';
import { describeTermRule, isTermFault, termDays, termRule, termWindow, termYearOf, type TermRule } from '../../../src/domain/triggers/term.js';

const LADDER = [{ at_least: 6.5, fraction: 0.25 }, { at_least: 7.0, fraction: 0.5 }, { at_least: 7.5, fraction: 1 }];

test('ladder: the fraction of the highest level reached, levels inclusive; nothing below the lowest', () => {
  assert.equal(ladderFraction(LADDER, 6.49), 0);
  assert.equal(ladderFraction(LADDER, 6.5), 0.25);
  assert.equal(ladderFraction(LADDER, 6.99), 0.25);
  assert.equal(ladderFraction(LADDER, 7.0), 0.5);
  assert.equal(ladderFraction(LADDER, 7.9), 1);
  assert.equal(occurrencePayout({ function: 'ladder', levels: LADDER }, 10_000_000, 7.2), 5_000_000);
  assert.equal(triggerLevel({ function: 'ladder', levels: LADDER }), 6.5);
});

test('linear: limit × clamp((x − A)/(E − A), 0, 1)', () => {
  assert.equal(linearFraction(25000, 40000, 20000), 0);
  assert.equal(linearFraction(25000, 40000, 25000), 0);
  assert.equal(linearFraction(25000, 40000, 32500), 0.5);
  assert.equal(linearFraction(25000, 40000, 40000), 1);
  assert.equal(linearFraction(25000, 40000, 53300), 1);
  assert.equal(occurrencePayout({ function: 'linear', attachment: 150, exhaustion: 300 }, 2_000_000, 200), 666_666.67);
  assert.throws(() => linearFraction(300, 150, 200), RangeError);
  assert.equal(triggerLevel({ function: 'linear', attachment: 150, exhaustion: 300 }), 150);
});

test('annual aggregate: attachment deducted from the year\'s sum, then capped', () => {
  assert.equal(annualPayout(12_500_000, { attachment: 0, annual_cap: 10_000_000 }), 10_000_000);
  assert.equal(annualPayout(2_500_000, { attachment: 3_000_000, annual_cap: 10_000_000 }), 0);
  assert.equal(annualPayout(5_000_000, { attachment: 3_000_000, annual_cap: 10_000_000 }), 2_000_000);
  assert.equal(annualPayout(30_000_000, { attachment: 1_000_000, annual_cap: 20_000_000 }), 20_000_000);
  assert.equal(roundMoney(0.1 + 0.2), 0.3);
  assert.equal(roundMoney(1 / 3), 0.33);
});

const rule = (start: string, end: string): TermRule => {
  const r = termRule({ start, end });
  if (isTermFault(r)) throw new Error(r.message);
  return r;
};

test('term: a seasonal term replays its calendar part in every historical year', () => {
  const r = rule('2027-06-01', '2027-11-30');
  assert.equal(r.crosses_new_year, false);
  const w = termWindow(r, 1992);
  assert.deepEqual([w.from, w.to, w.days], ['1992-06-01', '1992-11-30', 183]);
  assert.equal(w.start_ms, Date.UTC(1992, 5, 1));
  assert.equal(w.end_ms, Date.UTC(1992, 11, 1));
  assert.equal(termYearOf(r, Date.UTC(1992, 7, 24, 9)), 1992);
  assert.equal(termYearOf(r, Date.UTC(1992, 11, 1)), null, 'the day after the last is outside');
  assert.equal(termYearOf(r, Date.UTC(1992, 10, 30, 23, 59)), 1992);
  assert.equal(termYearOf(r, Date.UTC(1992, 4, 31, 23, 59)), null);
  assert.match(describeTermRule(r), /1 June to 30 November/);
});

test('term: a term crossing New Year belongs to the year it starts in', () => {
  const r = rule('2027-11-01', '2028-04-30');
  assert.equal(r.crosses_new_year, true);
  const w = termWindow(r, 2004);
  assert.deepEqual([w.from, w.to, w.days], ['2004-11-01', '2005-04-30', 181]);
  assert.equal(termYearOf(r, Date.UTC(2005, 1, 10)), 2004, 'February 2005 belongs to the term of 2004');
  assert.equal(termYearOf(r, Date.UTC(2005, 10, 10)), 2005);
  assert.equal(termYearOf(r, Date.UTC(2005, 6, 10)), null, 'July is outside the term');
  assert.match(describeTermRule(r), /crosses New Year.*belongs to year Y/);
  assert.equal(termDays(w)[0], '2004-11-01');
  assert.equal(termDays(w).at(-1), '2005-04-30');
});

test('term: 29 February ends a term on 28 February in common years, and starts one on 1 March', () => {
  const end = rule('2027-12-01', '2028-02-29');
  assert.equal(termWindow(end, 2003).to, '2004-02-29');
  assert.equal(termWindow(end, 2004).to, '2005-02-28');
  const start = rule('2028-02-29', '2028-06-30');
  assert.equal(termWindow(start, 2028).from, '2028-02-29');
  assert.equal(termWindow(start, 2027).from, '2027-03-01');
  assert.equal(termWindow(rule('2027-01-01', '2027-12-31'), 2000).days, 366);
});

test('term: faults are named (bad date, end before start, longer than a year)', () => {
  const fault = (start: string, end: string): string => {
    const r = termRule({ start, end });
    return isTermFault(r) ? r.fault : 'none';
  };
  assert.equal(fault('2027-02-30', '2027-03-01'), 'period_date_invalid');
  assert.equal(fault('2027-06-01', 'soon'), 'period_date_invalid');
  assert.equal(fault('2027-06-01', '2027-05-31'), 'period_end_before_start');
  assert.equal(fault('2027-06-01', '2028-06-01'), 'period_longer_than_a_year');
  assert.equal(fault('2027-01-01', '2029-01-01'), 'period_longer_than_a_year');
  assert.equal(fault('2027-06-01', '2028-05-31'), 'none');
  assert.equal(fault('2027-06-01', '2027-06-01'), 'none');
});

// The admissions a process keeps for its runs' jobs (app/lab-admissions.ts): taken once, the last
// two kept, none after ten minutes, and nothing kept for a lane whose admission answers nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepAdmission, takeAdmission } from '../../src/app/lab-admissions.js';

test('an admission is taken once, by its run id', () => {
  keepAdmission('run_a', { near: [1, 2] }, 0);
  assert.equal(takeAdmission('run_b', 1), undefined);
  assert.deepEqual(takeAdmission('run_a', 1), { near: [1, 2] });
  assert.equal(takeAdmission('run_a', 2), undefined);
});

test('the last two admissions are kept; an older one is dropped and its job computes it again', () => {
  keepAdmission('run_1', 1, 0);
  keepAdmission('run_2', 2, 0);
  keepAdmission('run_3', 3, 0);
  assert.equal(takeAdmission('run_1', 1), undefined);
  assert.equal(takeAdmission('run_2', 1), 2);
  assert.equal(takeAdmission('run_3', 1), 3);
});

test('an admission not taken within ten minutes is gone; null (a lane with no admit) is never kept', () => {
  keepAdmission('run_late', 'x', 0);
  assert.equal(takeAdmission('run_late', 10 * 60_000 + 1), undefined);
  keepAdmission('run_null', null, 0);
  assert.equal(takeAdmission('run_null', 1), undefined);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sniffSchedule } from '../../../src/domain/exposure/sniff.js';
import { oedReference } from './support.js';

const oed = oedReference();
const sniff = (text: string, fileName = 'schedule.csv') => sniffSchedule(text, fileName, oed);

test('each delimiter, by the header it gives and the consistency of its fields', () => {
  assert.deepEqual(sniff('Ref,Lat,Long,TIV\nA,1,2,3\nB,4,5,6\n'), { kind: 'delimited', delimiter: ',' });
  assert.deepEqual(sniff('Ref|Lat|Long|TIV\nA|1|2|3\n'), { kind: 'delimited', delimiter: '|' });
  assert.deepEqual(sniff('Ref\tAddress\tTIV\nA\t1 Main St, Springfield\t3\nB\t2 Elm St, Shelbyville\t4\n'), { kind: 'delimited', delimiter: '\t' });
  // decimal commas give consistent comma counts too; the semicolon header decides
  assert.deepEqual(sniff('Ref;Lat;Long;TIV\nA;48,85;2,35;1\nB;45,76;4,83;2\n'), { kind: 'delimited', delimiter: ';' });
  // no recognisable header: the delimiter that splits lines into consistent fields
  assert.deepEqual(sniff('a;b;c\nd;e;f\ng;h;i\n'), { kind: 'delimited', delimiter: ';' });
  // a quoted field with embedded delimiters and a newline does not upset the count
  assert.deepEqual(sniff('Ref,Street,TIV\n1,"1 Main St,\nSuite 2",5\n2,x,6\n'), { kind: 'delimited', delimiter: ',' });
  // title lines above the header
  assert.deepEqual(sniff('Acme schedule\nAs at 1 June\n\nRef;Street;TIV\n1;Main;5\n'), { kind: 'delimited', delimiter: ';' });
});

test('the file name breaks ties', () => {
  assert.deepEqual(sniff('a,b\tc,d\te\n1,2\t3,4\t5\n', 'x.tsv'), { kind: 'delimited', delimiter: '\t' });
  assert.deepEqual(sniff('a,b\tc,d\te\n1,2\t3,4\t5\n', 'x.csv'), { kind: 'delimited', delimiter: ',' });
});

test('JSON Lines, a JSON array, and text that is neither', () => {
  assert.deepEqual(sniff('{"ref":"1"}\n\n{"ref":"2"}\nnot json\n'), { kind: 'json-lines' });
  assert.deepEqual(sniff('[{"ref":"1"},{"ref":"2"}]'), { kind: 'unsupported', message: 'the file is a JSON array, not JSON Lines: send one JSON object a line' });
  const prose = 'Dear underwriter\nplease find attached the schedule\nkind regards\n';
  assert.equal(sniff(prose).kind, 'unsupported');
});

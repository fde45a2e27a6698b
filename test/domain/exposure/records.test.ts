import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DelimitedRecordReader, MAX_QUOTED_CHARS, readDelimitedRecords } from '../../../src/domain/exposure/records.js';

type Out = { records: Array<[number, string[]]>; notes: Array<[number, string]> };

function whole(text: string, delimiter = ','): Out {
  const out: Out = { records: [], notes: [] };
  readDelimitedRecords(text, delimiter, (line, cells) => out.records.push([line, cells]), (line, reason) => out.notes.push([line, reason]));
  return out;
}

test('quotes, escaped quotes, embedded delimiters and line breaks; the line each record starts on', () => {
  const text = 'a,b,c\r\n1,"x, y","say ""hi"""\r\n2,"two\nlines",z\n\n3,,\r4';
  assert.deepEqual(whole(text).records, [
    [1, ['a', 'b', 'c']],
    [2, ['1', 'x, y', 'say "hi"']],
    [3, ['2', 'two\nlines', 'z']],
    [5, ['']],
    [6, ['3', '', '']],
    [7, ['4']],
  ]);
});

test('tolerant quoting: spaces before a quote, text after a closing quote, a quote inside a field', () => {
  assert.deepEqual(whole('a, "b, c" ,5\'10" tall,"x"y').records, [[1, ['a', 'b, c ', '5\'10" tall', 'xy']]]);
});

test('an unclosed quote is read as a literal character, and the rest of the file is not lost', () => {
  const out = whole('a,b\n1,"unclosed\n2,3\n');
  assert.deepEqual(out.records, [[1, ['a', 'b']], [2, ['1', '"unclosed']], [3, ['2', '3']]]);
  assert.deepEqual(out.notes, [[2, 'unclosed quote read as a literal character']]);
  const long = whole(`x,"${'y'.repeat(MAX_QUOTED_CHARS + 10)}\n1,2\n`);
  assert.equal(long.records.length, 2);
  assert.deepEqual(long.notes, [[1, 'unclosed quote read as a literal character']]);
});

test('other delimiters and a record limit', () => {
  assert.deepEqual(whole('a;b;"c;d"\n1;2;3', ';').records, [[1, ['a', 'b', 'c;d']], [2, ['1', '2', '3']]]);
  assert.deepEqual(whole('a\tb|c\n', '\t').records, [[1, ['a', 'b|c']]]);
  const firstTwo: string[][] = [];
  readDelimitedRecords('1\n2\n3\n4\n', ',', (_line, cells) => firstTwo.push(cells), undefined, 2);
  assert.deepEqual(firstTwo, [['1'], ['2']]);
});

const cellText = fc.oneof(
  fc.constantFrom('', ' ', '"', '""', ',', ';', '\n', '\r\n', '\r', 'x', 'a b', '1,200', '"q"'),
  fc.string({ maxLength: 6 }),
);

test('property: fed in chunks anywhere, the reader gives exactly what the whole text gives', () => {
  fc.assert(
    fc.property(
      fc.array(cellText, { maxLength: 40 }).map((parts) => parts.join('')),
      fc.array(fc.nat(), { maxLength: 8 }),
      fc.constantFrom(',', ';', '\t', '|'),
      (text, cuts, delimiter) => {
        const expected = whole(text, delimiter);
        const out: Out = { records: [], notes: [] };
        const reader = new DelimitedRecordReader(delimiter, (line, cells) => out.records.push([line, [...cells]]), (line, reason) => out.notes.push([line, reason]));
        const points = [...new Set(cuts.map((c) => (text.length === 0 ? 0 : c % (text.length + 1))))].sort((a, b) => a - b);
        let from = 0;
        for (const point of points) {
          reader.write(text.slice(from, point));
          from = point;
        }
        reader.write(text.slice(from));
        reader.end();
        assert.deepEqual(out, expected);
      },
    ),
  );
});

test('property: quoting any cells and reading them back returns the cells', () => {
  fc.assert(
    fc.property(fc.array(fc.array(fc.string({ maxLength: 8 }), { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 6 }), (rows) => {
      const text = rows.map((row) => row.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(',')).join('\r\n');
      assert.deepEqual(whole(text).records.map(([, cells]) => cells), rows);
    }),
  );
});

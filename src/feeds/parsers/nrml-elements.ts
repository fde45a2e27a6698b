// The few pieces of XML an NRML reader of a user's file needs, read without a DOM: comments
// dropped, an element's attributes (either quote, any order, the five predefined entities and
// numeric references decoded), an element's text, a list of numbers. Strict: a value that does not
// read is an error naming where it stands.

export function withoutComments(xml: string): string {
  return xml.replace(/<!--[\s\S]*?-->/g, '');
}

function decode(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'amp') return '&';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });
}

/** An element's attributes by name (a namespace prefix kept as written). */
export function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1]!] = decode(m[2] ?? m[3] ?? '');
  return out;
}

/** The first element named tag: its attributes and its inner text (empty for a self-closed one), or null. */
export function firstElement(xml: string, tag: string): { attrs: Record<string, string>; body: string } | null {
  const m = new RegExp(`<${tag}(\\s[^>]*?)?(/>|>([\\s\\S]*?)</${tag}\\s*>)`).exec(xml);
  if (!m) return null;
  return { attrs: attributes(m[1] ?? ''), body: m[3] ?? '' };
}

/** Every element named tag, in order, with its attributes and inner text. */
export function* elements(xml: string, tag: string): Generator<{ attrs: Record<string, string>; body: string }> {
  for (const m of xml.matchAll(new RegExp(`<${tag}(\\s[^>]*?)?(/>|>([\\s\\S]*?)</${tag}\\s*>)`, 'g'))) {
    yield { attrs: attributes(m[1] ?? ''), body: m[3] ?? '' };
  }
}

/** Text with its entities decoded and outer white space trimmed. */
export function textOf(body: string): string {
  return decode(body).trim();
}

/** A finite number, or an error naming what it is. */
export function numberOf(text: string | undefined, what: string): number {
  const v = text === undefined || text.trim() === '' ? Number.NaN : Number(text.trim());
  if (!Number.isFinite(v)) throw new Error(`${what}: ${JSON.stringify(text ?? null)} is not a number`);
  return v;
}

/** White-space separated numbers, each finite, or an error naming the list. */
export function numbersOf(text: string, what: string): number[] {
  const t = textOf(text);
  if (t === '') return [];
  return t.split(/\s+/).map((v) => numberOf(v, what));
}

/** The NRML version a document declares in its namespace (0.4, 0.5), or an error. */
export function nrmlVersion(xml: string, expected: string): string {
  const m = /<nrml\b[^>]*xmlns\s*=\s*["']http:\/\/openquake\.org\/xmlns\/nrml\/([0-9.]+)["']/.exec(xml);
  if (!m) throw new Error(`not an NRML document: no <nrml xmlns="http://openquake.org/xmlns/nrml/..."> around the ${expected}`);
  if (m[1] !== '0.4' && m[1] !== '0.5') throw new Error(`NRML ${m[1]} is not read here: NRML 0.4 and 0.5 are`);
  return m[1]!;
}

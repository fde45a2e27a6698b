// A small XML reader for the charts' tests (no XML package is installed): it throws on anything
// not well-formed (tags that do not nest, unquoted or repeated attributes, a bare < or &, an
// unknown entity, text outside the root) and answers the element tree to query.

export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_:][\w:.-]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescape(raw: string, where: number): string {
  if (raw.includes('<')) throw new Error(`a bare < at ${where}`);
  return raw.replace(/&([^;]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new Error(`an & without ; at ${where}`);
    if (name in ENTITIES) return ENTITIES[name]!;
    const code = /^#x([0-9a-fA-F]+)$/.exec(name)?.[1] ?? /^#(\d+)$/.exec(name)?.[1];
    if (code === undefined) throw new Error(`unknown entity &${name}; at ${where}`);
    return String.fromCodePoint(parseInt(code, name.startsWith('#x') ? 16 : 10));
  });
}

export function parseXml(source: string): XmlElement {
  let at = 0;
  const declaration = /^<\?xml[^?]*\?>\s*/.exec(source);
  if (declaration) at = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (at < source.length) {
    const lt = source.indexOf('<', at);
    const chunk = source.slice(at, lt === -1 ? source.length : lt);
    if (stack.length === 0) {
      if (chunk.trim() !== '') throw new Error(`text outside the root element at ${at}`);
    } else {
      stack[stack.length - 1]!.text += unescape(chunk, at);
    }
    if (lt === -1) break;
    const gt = source.indexOf('>', lt);
    if (gt === -1) throw new Error(`a tag not closed at ${lt}`);
    const tag = source.slice(lt + 1, gt);
    at = gt + 1;
    if (tag.startsWith('/')) {
      const open = stack.pop();
      if (!open || open.name !== tag.slice(1).trim()) throw new Error(`</${tag.slice(1)}> closes ${open ? `<${open.name}>` : 'nothing'} at ${lt}`);
      continue;
    }
    const name = NAME.exec(tag)?.[0];
    if (!name) throw new Error(`a tag without a name at ${lt}`);
    const selfClosing = tag.endsWith('/');
    let rest = tag.slice(name.length, selfClosing ? -1 : undefined);
    const attrs: Record<string, string> = {};
    while (rest.trim() !== '') {
      const m = /^\s+([A-Za-z_:][\w:.-]*)="([^"]*)"/.exec(rest);
      if (!m) throw new Error(`a malformed attribute in <${name}> at ${lt}: ${rest.slice(0, 40)}`);
      if (m[1]! in attrs) throw new Error(`attribute ${m[1]} repeated in <${name}> at ${lt}`);
      attrs[m[1]!] = unescape(m[2]!, lt);
      rest = rest.slice(m[0].length);
    }
    if (root && stack.length === 0) throw new Error(`a second root element <${name}> at ${lt}`);
    const element: XmlElement = { name, attrs, children: [], text: '' };
    if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Every element under (and including) `node` that the test admits, in document order. */
export function findAll(node: XmlElement, admit: (e: XmlElement) => boolean): XmlElement[] {
  return [...(admit(node) ? [node] : []), ...node.children.flatMap((c) => findAll(c, admit))];
}

/** Elements whose class list holds every one of the given classes. */
export const classed = (...names: string[]) => (e: XmlElement) => names.every((n) => (e.attrs.class ?? '').split(' ').includes(n));

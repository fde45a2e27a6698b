// A small SVG writer: escaped text, numbers with fixed decimals, elements, and the document with its
// title and description. Pure and deterministic: the same calls give the same bytes, so a chart of
// a content-addressed resource is itself a stable representation (ETag, immutable).

/** Text and attribute values escaped for XML (the five predefined entities). */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** A coordinate or length: two decimals, no trailing zeros, never "-0" (the same number, the same bytes). */
export function num(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`an SVG number must be finite, got ${value}`);
  const fixed = value.toFixed(2).replace(/\.?0+$/, '');
  return fixed === '-0' ? '0' : fixed;
}

export type Attributes = Record<string, string | number | undefined>;

function attributes(attrs: Attributes): string {
  return Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? num(v) : esc(v!)}"`)
    .join('');
}

/** One element: self-closed when it has no children; children are already-written markup. */
export function el(name: string, attrs: Attributes = {}, ...children: string[]): string {
  return children.length === 0 ? `<${name}${attributes(attrs)}/>` : `<${name}${attributes(attrs)}>${children.join('')}</${name}>`;
}

/** A text element (its content escaped). */
export function text(x: number, y: number, content: string, attrs: Attributes = {}): string {
  return `<text${attributes({ x, y, ...attrs })}>${esc(content)}</text>`;
}

/** A tooltip for the element it is the first child of (escaped). */
export function tooltip(content: string): string {
  return `<title>${esc(content)}</title>`;
}

/** A polyline through points, or nothing when there are fewer than two. */
export function polyline(points: ReadonlyArray<readonly [number, number]>, attrs: Attributes = {}): string {
  if (points.length < 2) return '';
  return el('polyline', { points: points.map(([x, y]) => `${num(x)},${num(y)}`).join(' '), fill: 'none', ...attrs });
}

/** Fonts named for every text: DejaVu Sans where installed (the PNG renderer's default), else any sans-serif. */
const FONT = 'DejaVu Sans, Arial, sans-serif';

/**
 * A whole SVG document: width × height user units, a <title> and a <desc> (read by screen readers
 * and shown as a tooltip; the desc says what the picture leaves out), then the body.
 */
export function svgDocument(size: { width: number; height: number }, title: string, desc: string, body: readonly string[]): string {
  const { width, height } = size;
  return '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" ` +
    `font-family="${FONT}" font-size="12" role="img">` +
    `<title>${esc(title)}</title><desc>${esc(desc)}</desc>` +
    el('rect', { x: 0, y: 0, width, height, fill: '#ffffff' }) +
    body.join('') +
    '</svg>\n';
}

/** A linear scale from a domain onto a pixel range. */
export function linear(domain: readonly [number, number], range: readonly [number, number]): (v: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  return (v) => r0 + ((v - d0) / span) * (r1 - r0);
}

/** "Nice" tick values (1, 2 or 5 × 10^k steps) covering min to max, about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  // From the step at or below min to the first at or above max, so the axis holds every value.
  const ticks = [Number((Math.floor(min / step) * step).toPrecision(12))];
  while (ticks[ticks.length - 1]! < max - step * 1e-9) ticks.push(Number((ticks[ticks.length - 1]! + step).toPrecision(12)));
  return ticks;
}

/** An amount for an axis label: 1.5M, 250k, 12 (no currency: the axis title names it). */
export function shortAmount(value: number): string {
  const abs = Math.abs(value);
  const [scaled, suffix] = abs >= 1e9 ? [value / 1e9, 'G'] : abs >= 1e6 ? [value / 1e6, 'M'] : abs >= 1e3 ? [value / 1e3, 'k'] : [value, ''];
  return `${Number(scaled.toPrecision(3))}${suffix}`;
}

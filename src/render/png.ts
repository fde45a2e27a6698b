// An SVG chart rasterised to PNG by resvg (no browser), on libuv's thread pool so the event loop
// keeps answering. Text needs a system font: on a machine without one the text is left out of the
// picture, and nothing fails.
import { renderAsync } from '@resvg/resvg-js';

export async function svgToPng(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, logLevel: 'off' });
  return image.asPng();
}

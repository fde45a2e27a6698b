// The fonts PDFs are drawn with: DejaVu Sans and DejaVu Sans Bold from the installed
// dejavu-fonts-ttf package (Latin with accents, €, Greek, Cyrillic), read once when first asked
// for. render/ reads no file: the bytes are handed to it from here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PdfFonts } from './render/pdf.js';

const require = createRequire(import.meta.url);
let fonts: PdfFonts | undefined;

export function pdfFonts(): PdfFonts {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return fonts;
}

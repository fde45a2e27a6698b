// The fonts PDFs are drawn with: DejaVu Sans and DejaVu Sans Bold from the installed
// dejavu-fonts-ttf package (Latin with accents, €, Greek, Cyrillic), read and parsed once, when
// first asked for, by fontkit (the font reader pdfkit itself uses): every PDF drawn afterwards
// shares the parsed fonts instead of parsing 1.4 MB of font tables again. render/ reads no file:
// the fonts are handed to it from here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PdfFont, PdfFonts } from './render/pdf.js';

const require = createRequire(import.meta.url);
let fonts: PdfFonts | undefined;

export function pdfFonts(): PdfFonts {
  if (!fonts) {
    const fontkit = require('fontkit') as { create(bytes: Uint8Array): PdfFont };
    const parsed = (file: string) => fontkit.create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
    fonts = { regular: parsed('DejaVuSans.ttf'), bold: parsed('DejaVuSans-Bold.ttf') };
  }
  return fonts;
}

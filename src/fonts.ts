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
    const fontkit = pdfkitFontReader();
    const font = (file: string): PdfFont => {
      const bytes = readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
      return fontkit ? fontkit.create(bytes) : bytes;
    };
    fonts = { regular: font('DejaVuSans.ttf'), bold: font('DejaVuSans-Bold.ttf') };
  }
  return fonts;
}

/** fontkit as pdfkit resolves it (its own dependency); without it, the bytes are handed over and each PDF parses them. */
function pdfkitFontReader(): { create(bytes: Uint8Array): PdfFont } | undefined {
  try {
    return createRequire(require.resolve('pdfkit'))('fontkit') as { create(bytes: Uint8Array): PdfFont };
  } catch {
    return undefined;
  }
}

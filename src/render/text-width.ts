// How wide a line of chart text is drawn: the advance widths of DejaVu Sans and DejaVu Sans Bold
// (the fonts the PNG renderer and the PDFs use, src/fonts.ts), in thousandths of an em, for the
// characters charts print, read from the installed dejavu-fonts-ttf with fontkit. Kerning is left
// out (it moves a line by a few per cent at most, and test/render/chart-text.test.ts measures the
// drawn lines with it); a character not listed counts as wide as the widest listed. Titles are wrapped to the picture's width with it, so none is cut. Pure.

const CHARACTERS = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~°—–×€éèàçôüöäßσλµ²·…≥≤’‘“”Δ√Σ−";
const REGULAR = [318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, 500, 1000, 500, 838, 636, 615, 615, 613, 550, 612, 634, 612, 613, 630, 634, 592, 636, 401, 318, 1000, 838, 838, 318, 318, 518, 518, 684, 637, 632, 838];
const BOLD = [348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838, 500, 1000, 500, 838, 696, 678, 678, 675, 593, 687, 712, 687, 675, 719, 779, 633, 736, 438, 380, 1000, 838, 838, 380, 380, 657, 657, 774, 667, 683, 838];

const widths = (table: readonly number[]) => new Map([...CHARACTERS].map((c, i) => [c, table[i]!]));
const FACES = { regular: widths(REGULAR), bold: widths(BOLD) };
const WIDEST = { regular: Math.max(...REGULAR), bold: Math.max(...BOLD) };

export type Face = keyof typeof FACES;

/** The width of a line of text at a font size, in the same units as the size. */
export function textWidth(text: string, size: number, face: Face = 'regular'): number {
  let em = 0;
  for (const c of text) em += FACES[face].get(c) ?? WIDEST[face];
  return (em / 1000) * size;
}

/** Lines of a heading as drawn: each line's text and its baseline. */
export interface HeadingLine { readonly text: string; readonly y: number }

/**
 * A chart's title (bold) and subtitle, wrapped to \`width\`, with their baselines from \`top\`: the
 * subtitle's first line 20 units under the title's last, lines of one block \`1.25 × size\` apart.
 * \`bottom\` is the baseline of the last line.
 */
export function headingLines(title: string, subtitle: string, width: number, sizes: { title: number; subtitle: number }, top = 24): { title: HeadingLine[]; subtitle: HeadingLine[]; bottom: number } {
  let y = top;
  const t = wrapText(title, width, sizes.title, 'bold').map((text, i) => ({ text, y: (y = top + i * Math.round(sizes.title * 1.25)) }));
  const start = y + 20;
  const s = subtitle === '' ? [] : wrapText(subtitle, width, sizes.subtitle).map((text, i) => ({ text, y: (y = start + i * Math.round(sizes.subtitle * 1.3)) }));
  return { title: t, subtitle: s, bottom: y };
}

/** The text in lines no wider than `width`, broken between words (a single word wider than the line stands alone). */
export function wrapText(text: string, width: number, size: number, face: Face = 'regular'): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && textWidth(candidate, size, face) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

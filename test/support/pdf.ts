// Reading PDFs in tests with poppler-utils (installed by .ci/run): each page's text (pdftotext),
// and whether a page carries the diagonal watermark, seen on the page rendered by pdftoppm. Rotated
// text comes out of pdftotext in fragments, so the diagonal is checked on the picture: the
// watermark is drawn in a pale red (#c0392b at 16% over white), and each quarter of the page's
// central diagonal, from lower left to upper right, must hold pixels of that tint.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function pageCount(file: string): number {
  return Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
}

/** Each page's text, as pdftotext reads it. */
export function pageTexts(file: string): string[] {
  return Array.from({ length: pageCount(file) }, (_, i) => execFileSync('pdftotext', ['-f', String(i + 1), '-l', String(i + 1), '-layout', file, '-'], { encoding: 'utf8' }));
}

/** The same, for a PDF's bytes (written to a scratch file and removed). */
export function pdfPageTexts(pdf: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'catrisk-pdf-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    return pageTexts(join(dir, 'a.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pale-red pixels near each quarter of the central diagonal of every page (rendered at 30 dpi). */
export function diagonalTint(pdf: Buffer): number[][] {
  const dir = mkdtempSync(join(tmpdir(), 'catrisk-pdf-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '30', join(dir, 'a.pdf'), join(dir, 'page')]);
    return readdirSync(dir).filter((n) => n.endsWith('.ppm')).sort().map((name) => {
      const b = readFileSync(join(dir, name));
      const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(b.toString('latin1', 0, 32))!;
      const [w, h, at] = [Number(header[1]), Number(header[2]), header[0].length];
      const pale = (x: number, y: number) => {
        const i = at + 3 * (y * w + x);
        const [r, g, bl] = [b[i]!, b[i + 1]!, b[i + 2]!];
        return r > 200 && r - g >= 8 && r - bl >= 8 && r - g <= 60;
      };
      return [0, 1, 2, 3].map((q) => {
        let n = 0;
        for (let t = 0.25 + q * 0.125; t < 0.25 + (q + 1) * 0.125; t += 0.005) {
          const cx = Math.round(t * w);
          const cy = Math.round((1 - t) * h);
          for (let dx = -6; dx <= 6; dx += 1) for (let dy = -6; dy <= 6; dy += 1) if (pale(cx + dx, cy + dy)) n += 1;
        }
        return n;
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

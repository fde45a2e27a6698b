// Storm tracks: the common output of the best-track parsers (HURDAT2, JTWC ATCF b-decks).

const UNITS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE'];
const TEENS = ['TEN', 'ELEVEN', 'TWELVE', 'THIRTEEN', 'FOURTEEN', 'FIFTEEN', 'SIXTEEN', 'SEVENTEEN', 'EIGHTEEN', 'NINETEEN'];
const TENS = ['TWENTY', 'THIRTY', 'FORTY', 'FIFTY'];
const NUMBER_WORDS = new Set([
  ...UNITS, ...TEENS, ...TENS,
  ...TENS.flatMap((t) => UNITS.flatMap((u) => [`${t}${u}`, `${t}-${u}`])),
]);

// Placeholder names of unnamed systems (GENESIS004 = a JTWC pre-genesis tracking label). JTWC truncates names to 10 characters
// (TWENTYSEVE, THIRTY-THR), so a 10-character prefix of a number word counts too.
export function isPlaceholderName(name: string): boolean {
  const n = name.trim().toUpperCase();
  if (n === '' || /^(UNNAMED|INVEST|NONAME|NO NAME|NONE|GENESIS\d*)$/.test(n)) return true;
  if (NUMBER_WORDS.has(n)) return true;
  return n.length === 10 && [...NUMBER_WORDS].some((w) => w.startsWith(n));
}

export function isoUtc(epochMs: number): string {
  return new Date(epochMs).toISOString().replace('.000Z', 'Z');
}

// "28.0N" / "94.8W" (HURDAT2, degrees) or "64N" / "1409E" (ATCF, tenths): signed decimal degrees.
export function parseLatLon(field: string, tenths: boolean): number | null {
  const m = /^(-?\d+(?:\.\d+)?)([NSEW])$/.exec(field.trim());
  if (!m) return null;
  const v = Number(m[1]) / (tenths ? 10 : 1);
  return m[2] === 'S' || m[2] === 'W' ? -v : v;
}

// Brings a longitude into [-180, 180] (ATCF writes e.g. 1816E past the date line).
export function wrapLongitude(lon: number): number {
  return lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon;
}

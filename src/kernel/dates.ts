// Calendar days and fixed-length durations in UTC epoch time (no DST, no leap seconds): the one
// copy every layer uses.

export const DAY_MS = 86_400_000;

/** YYYY-MM-DD of the UTC day holding an epoch instant. */
export function isoDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** 00:00 UTC of a YYYY-MM-DD day (read as written; check it first with isValidDate). */
export function dayEpoch(date: string): number {
  return Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));
}

/** A bare date is midnight UTC; a date-time must carry its offset. Undefined when it is neither. */
export function instant(raw: string): number | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    const ms = Date.parse(`${raw}T00:00:00Z`);
    return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw ? undefined : ms;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw)) return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}

// True only for real calendar dates (rejects 1990-02-30, which Date.UTC would roll over).
export function isValidDate(date: string): boolean {
  return /^\d{4}-\d\d-\d\d$/.test(date) && isoDay(dayEpoch(date)) === date;
}

const MS_PER = { W: 7 * DAY_MS, D: DAY_MS, H: 3_600_000, M: 60_000, S: 1_000 } as const;
const NUMBER = String.raw`(\d+(?:[.,]\d+)?)`;
const WEEK_FORM = new RegExp(`^P${NUMBER}W$`);
const DAY_TIME_FORM = new RegExp(`^P(?:${NUMBER}D)?(?:T(?:${NUMBER}H)?(?:${NUMBER}M)?(?:${NUMBER}S)?)?$`);

/**
 * Parses an ISO 8601 duration of fixed length into milliseconds: PnW alone, or days and a time part
 * (P7D, PT36H, P1DT12H, PT90M, PT0.5S). A day is 86,400,000 ms (UTC epoch time has no DST and no
 * leap seconds). Years and months are refused because their length depends on the calendar; a
 * decimal fraction is allowed on the last component only (ISO 8601 §4.4.3.2). Rounded to whole ms.
 */
export function parseIsoDuration(text: string): number {
  const datePart = text.startsWith('P') ? text.slice(1).split('T')[0]! : '';
  if (/[YM]/.test(datePart)) {
    throw new RangeError(
      `duration ${JSON.stringify(text)} uses years or months, which have no fixed length; ` +
        'write it in weeks, days or hours (e.g. P365D, P30D)',
    );
  }
  const week = WEEK_FORM.exec(text);
  if (week) return Math.round(toNumber(week[1]!) * MS_PER.W);

  const match = DAY_TIME_FORM.exec(text);
  const parts = match ? ([match[1], match[2], match[3], match[4]] as const) : null;
  const present = parts?.filter((p): p is string => p !== undefined) ?? [];
  const emptyTimePart = text.includes('T') && parts !== null && parts.slice(1).every((p) => p === undefined);
  if (!match || present.length === 0 || emptyTimePart) {
    throw new RangeError(
      `${JSON.stringify(text)} is not an ISO 8601 duration of weeks, days, hours, minutes or seconds (e.g. P7D, PT36H, P1DT12H)`,
    );
  }
  if (present.slice(0, -1).some((p) => /[.,]/.test(p))) {
    throw new RangeError(`duration ${JSON.stringify(text)} has a fraction on a component other than the last`);
  }
  const [days, hours, minutes, seconds] = parts!;
  const total =
    toNumber(days) * MS_PER.D + toNumber(hours) * MS_PER.H + toNumber(minutes) * MS_PER.M + toNumber(seconds) * MS_PER.S;
  return Math.round(total);
}

function toNumber(component: string | undefined): number {
  return component === undefined ? 0 : Number(component.replace(',', '.'));
}

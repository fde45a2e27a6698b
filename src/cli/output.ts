// What a command prints on stdout: the document as the API gave it (json), a summary a person
// reads (table), the CSV the API serves for it (csv, fetched by the command), or the ids it names
// (id), one a line, for a shell to keep: STR=$(catrisk structure OBJ --format id).

export const FORMATS = ['json', 'csv', 'table', 'id'] as const;
export type Format = (typeof FORMATS)[number];

export function jsonText(document: unknown): string {
  return JSON.stringify(document, null, 2) + '\n';
}

/** Rows as aligned columns under a header; numbers right-aligned. */
export function columns(header: string[], rows: unknown[][]): string {
  const cells = rows.map((r) => r.map(cellText));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || r[i] === null || r[i] === undefined));
  const line = (r: string[]) => r.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n') + '\n';
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  // Amounts to the cent; small fractions (a rate on line) to four places.
  if (typeof value === 'number') return value.toLocaleString('en-US', { maximumFractionDigits: Math.abs(value) >= 1 ? 2 : 4 });
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `name  value` lines for the members given, skipping those the document lacks. */
function facts(pairs: [string, unknown][]): string {
  const shown = pairs.filter(([, v]) => v !== undefined && v !== null);
  const width = Math.max(0, ...shown.map(([k]) => k.length));
  return shown.map(([k, v]) => `${k.padEnd(width)}  ${cellText(v)}`).join('\n') + (shown.length > 0 ? '\n' : '');
}

/** A readable summary of any document the API answers, chosen by its shape. */
export function tableText(doc: any): string {
  if (!doc || typeof doc !== 'object') return `${cellText(doc)}\n`;
  if (typeof doc.verb === 'string' && typeof doc.status === 'string' && doc.links?.self?.startsWith('/jobs/')) return jobTable(doc);
  if (Array.isArray(doc.years) && doc.window) return backtestTable(doc);
  if (doc.technical_premium && doc.blend) return priceTable(doc);
  if (typeof doc.id === 'string' && doc.id.startsWith('run_')) return runTable(doc);
  const list = listOf(doc);
  if (list) return columns(list.header, list.rows);
  // Any other document: its own scalar members, then those of the blocks it holds, one a line.
  const isScalar = (v: unknown) => typeof v !== 'object' || v === null;
  const entries = Object.entries(doc);
  return facts([
    ...entries.filter(([, v]) => isScalar(v)),
    ...entries.filter(([, v]) => v && typeof v === 'object' && !Array.isArray(v)).flatMap(([k, v]) =>
      Object.entries(v as object).filter(([, w]) => isScalar(w)).map(([l, w]): [string, unknown] => [`${k}.${l}`, w])),
  ]);
}

function jobTable(job: any): string {
  let text = facts([['job', job.id], ['verb', job.verb], ['status', job.status], ['created_at', job.created_at],
    ['started_at', job.started_at], ['finished_at', job.finished_at], ['progress', job.progress?.sentence]]);
  if (job.error) text += facts([['error', `${job.error.status} ${job.error.code}: ${job.error.message}`]]);
  const result = job.result;
  if (!result) return text;
  if (Array.isArray(result.objects)) return text + '\n' + columns(['object', 'link'], result.objects.map((o: any) => [o.id, o.links?.self]));
  if (result.run_id && !result.years) return text + facts([['run', result.run_id], ['link', result.links?.self]]);
  return text + '\n' + tableText(result);
}

function backtestTable(bt: any): string {
  const stats = bt.statistics ?? {};
  const head = facts([['backtest', bt.id], ['feed', bt.feed ? `${bt.feed.feed_id} ${bt.feed.version}` : undefined],
    ['window', `${bt.window.from_year}-${bt.window.to_year}`], ['mean annual payout', stats.mean_annual_payout],
    ['statement', bt.statement]]);
  const rows = bt.years.map((y: any) => [String(y.year), y.payout, Array.isArray(y.occurrences) ? y.occurrences.length : null,
    y.payout === null ? 'no record' : (y.occurrences ?? []).map((o: any) => o.event_id).filter(Boolean).join(' ')]);
  return head + '\n' + columns(['year', 'payout', 'occurrences', 'events'], rows);
}

function priceTable(p: any): string {
  return facts([['price', p.id], ['technical premium', p.technical_premium.amount], ['currency', p.technical_premium.currency],
    ['rate on line', p.technical_premium.rate_on_line], ['expected loss', p.blend?.expected_loss],
    ['historical burn', p.historical_burn?.mean], ['statement', p.statement]]);
}

function runTable(run: any): string {
  const metrics = run.result?.metrics;
  let text = facts([['run', run.id], ['model', run.model?.id], ['status', run.status], ['label', run.label],
    ['average annual loss', metrics?.average_annual_loss?.mean]]);
  if (run.error) text += facts([['error', `${run.error.status} ${run.error.code}: ${run.error.message}`]]);
  const ex = metrics?.exceedance;
  if (ex && Array.isArray(ex.oep) && ex.oep.length > 0) {
    const aep = new Map<number, any>((ex.aep ?? []).map((r: any) => [r.return_period, r]));
    text += '\n' + columns(['return period', 'OEP loss', 'OEP TVaR', 'AEP loss', 'AEP TVaR'],
      ex.oep.map((r: any) => [r.return_period, r.loss, r.tvar, aep.get(r.return_period)?.loss, aep.get(r.return_period)?.tvar]));
  }
  return text;
}

/** A page of a list: the array member of items, shown by the scalar members they share. */
function listOf(doc: any): { header: string[]; rows: unknown[][] } | undefined {
  const arrays = Object.entries(doc).filter(([, v]) => Array.isArray(v) && v.length > 0 && v.every((x) => x && typeof x === 'object' && !Array.isArray(x)));
  if (arrays.length !== 1) return undefined;
  const items = arrays[0]![1] as Record<string, unknown>[];
  const header = [...new Set(items.flatMap((i) => Object.keys(i).filter((k) => typeof i[k] !== 'object' || i[k] === null)))];
  return { header, rows: items.map((i) => header.map((h) => i[h])) };
}

/** The last segment of a resource's path: /backtests/bt_1 → bt_1. */
const idOfPath = (path: unknown) => (typeof path === 'string' ? path.split('/').filter(Boolean).pop() : undefined);

/**
 * The ids a document names, one a line: a finished job's result (the objects an ingest made, the
 * backtest, price or run it wrote), any other job's own id, a resource's id, or a list's items'.
 * Undefined when it names none.
 */
export function idText(doc: any): string | undefined {
  if (!doc || typeof doc !== 'object') return undefined;
  const lines = (ids: unknown[]) => {
    const kept = ids.filter((i): i is string => typeof i === 'string' && i !== '');
    return kept.length > 0 ? kept.join('\n') + '\n' : undefined;
  };
  const isJob = typeof doc.verb === 'string' && typeof doc.status === 'string' && doc.links?.self?.startsWith('/jobs/');
  if (isJob) {
    const r = doc.status === 'succeeded' ? doc.result : undefined;
    if (r && Array.isArray(r.objects)) return lines(r.objects.map((o: any) => o?.id));
    const made = r ? (r.run_id ?? r.id ?? idOfPath(r.links?.self)) : undefined;
    return lines([made ?? doc.id]);
  }
  if (typeof doc.id === 'string') return lines([doc.id]);
  const list = Object.values(doc).find((v) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x?.id === 'string'));
  return list ? lines((list as any[]).map((x) => x.id)) : undefined;
}

// A backtest artifact's links. Artifacts and job results stored before charts existed carry only
// links.self; every answer gives links.chart as well, added as they are read (stored bytes are
// never rewritten).

export interface BacktestLinks {
  self: string;
  chart: string;
}

export function backtestLinks(id: string): BacktestLinks {
  return { self: `/backtests/${id}`, chart: `/backtests/${id}/chart.svg` };
}

/**
 * An artifact's stored canonical JSON with links.chart. Stored before charts, its links member is
 * exactly `"links":{"self":"/backtests/<id>"}`; canonical order puts chart before self, so the bytes
 * stay canonical. Any other bytes (already linked) are returned as they are.
 */
export function artifactJsonWithChart(json: string, id: string): string {
  const links = backtestLinks(id);
  const bare = `"links":{"self":${JSON.stringify(links.self)}}`;
  const at = json.indexOf(bare);
  if (at < 0) return json;
  return `${json.slice(0, at)}"links":{"chart":${JSON.stringify(links.chart)},"self":${JSON.stringify(links.self)}}${json.slice(at + bare.length)}`;
}

/**
 * A backtest's links as parsed from a stored answer (an artifact, or a price's `backtest` member),
 * given links.chart when it has only links.self naming a backtest. Changed in place.
 */
export function addChartLink(holder: unknown): void {
  if (holder === null || typeof holder !== 'object') return;
  const { id, links } = holder as { id?: unknown; links?: unknown };
  if (typeof id !== 'string' || links === null || typeof links !== 'object') return;
  const l = links as { self?: unknown; chart?: unknown };
  if (l.chart === undefined && l.self === backtestLinks(id).self) l.chart = backtestLinks(id).chart;
}

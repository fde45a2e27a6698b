// Pictures of results, drawn on the server from the same stored documents the JSON answers are
// made from: a backtest's payouts by year, a lab run's EP curves, an object's locations on a map
// (with a structure's box or gate) over Natural Earth's land. The pure writers of render/ make the SVG; PNG is that SVG
// rasterised. Choosing the format is the route's (the path names it).
import { backtestChart as drawBacktest, type BacktestChartInput } from '../render/backtest-chart.js';
import { epCurve } from '../render/ep-curve.js';
import { MapPoints, locationsMap } from '../render/locations-map.js';
import { svgToPng } from '../render/png.js';
import { naturalEarthLandPolygons } from '../land.js';
import type { Region } from '../domain/triggers/terms.js';
import { refusal, refusals } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import { perspectiveMetrics, type OrdPerspective } from './exports.js';
import { statusRetryAfter } from './jobs.js';
import { readRun, type JobLink } from './lab-runs.js';
import { locationBatches } from './objects.js';
import { readBacktest } from './structures.js';
import type { AppDeps } from './deps.js';

export const CHART_FORMATS = ['svg', 'png'] as const;
export type ChartFormat = (typeof CHART_FORMATS)[number];

export interface Chart {
  readonly type: 'image/svg+xml' | 'image/png';
  readonly body: string | Buffer;
}

async function chart(svg: string, format: ChartFormat): Promise<Chart> {
  return format === 'svg' ? { type: 'image/svg+xml', body: svg } : { type: 'image/png', body: await svgToPng(svg) };
}

/** GET /backtests/{id}/chart.svg|png: payout by year, the terms' lines, years without record shaded. */
export async function backtestChart(deps: Pick<AppDeps, 'structures'>, input: { accountId: string; id: string; format: ChartFormat }): Promise<Result<Chart>> {
  const json = await readBacktest(deps, input);
  if (!json.ok) return json;
  return ok(await chart(drawBacktest(JSON.parse(json.value) as BacktestChartInput), input.format));
}

/** GET /runs/{id}/chart.svg|png: the OEP and AEP curves with TVaR, once the run has succeeded. */
export async function runChart(
  deps: Pick<AppDeps, 'labRuns' | 'jobs'>,
  input: { accountId: string; id: string; jobLink: JobLink; perspective: OrdPerspective; format: ChartFormat },
): Promise<Result<Chart>> {
  const read = await readRun(deps, input);
  if (!read.ok) return read;
  const run = read.value;
  if (run.status !== 'succeeded') {
    const status = String(run.status);
    const hint = statusRetryAfter(status);
    const words = refusal(409, 'run_not_succeeded', `Run ${input.id} is ${status}: its chart is drawn from its results, which exist once it has succeeded.`);
    // While the run may still succeed, say when it is worth asking again.
    return refused(hint === undefined ? words : { ...words, headers: { 'retry-after': String(hint) } });
  }
  const metrics = perspectiveMetrics(run.result as Record<string, unknown>, input.perspective);
  if (!metrics) {
    return refused(refusals.invalidRequest(422, input.perspective === 'gul'
      ? `Run ${input.id} has no exceedance curves (result.metrics): its lane (flood or wildfire) gives its own figures, served as JSON.`
      : `Run ${input.id} has no ${input.perspective} perspective: il and ri are lab-metrics/1 only when the spec has terms or the object has OED terms, on a lane with exceedance curves.`));
  }
  const model = (run.model as { id: string }).id;
  const currency = (run.result as { currency?: string | null }).currency ?? null;
  return ok(await chart(epCurve(metrics, `Exceedance probability: ${model}`, `Run ${input.id}`, currency), input.format));
}

/** Locations parsed at a time while drawing a map: bounded memory whatever the object's size. */
const MAP_BATCH = 1000;

/**
 * GET /objects/{id}/map.svg|png: every location with coordinates (at most MAP_POINT_CAP drawn),
 * read as the stored bytes are scanned; with `structureId`, that structure's region over them (one
 * of the caller's structures, cut from this object).
 */
export async function objectMap(
  deps: Pick<AppDeps, 'objects' | 'structures'>,
  input: { accountId: string; id: string; structureId: string | undefined; format: ChartFormat },
): Promise<Result<Chart>> {
  const { id, accountId, structureId } = input;
  const head = await deps.objects.head(id, accountId);
  if (!head) return refused(refusals.notFound(`No object ${id} for this key`));
  let region: Region | null = null;
  let regionNote: string | null = null;
  if (structureId !== undefined) {
    const structure = await deps.structures.get(structureId, accountId);
    if (!structure) return refused(refusals.notFound(`No structure ${structureId} for this key`));
    if (structure.object_id !== id) {
      return refused(refusals.invalidRequest(422, `Structure ${structureId} was cut from ${structure.object_id}, not from ${id}: a map draws the region of a structure of its own object.`,
        [`structure: ${structureId} is a structure of ${structure.object_id}`]));
    }
    region = (structure.peril as { region?: Region } | undefined)?.region ?? null;
    const trigger = (structure.trigger as { type?: string } | undefined)?.type;
    regionNote = region === null
      ? `Structure ${structureId} has no region to draw (its trigger reads an index at a station or gauge).`
      : `The ${region.type} of structure ${structureId} (${trigger === 'parametric_cat_in_a_box' ? 'its cat-in-a-box' : 'its track gate'}).`;
  }
  const points = new MapPoints();
  for await (const batch of locationBatches(deps, id, head, MAP_BATCH)) {
    for (const location of batch) {
      const total = location.values.total;
      points.add(location.latitude, location.longitude, total === null || total === undefined ? null : Number(total), location.currency);
    }
  }
  const heading = `Locations of ${id}${region ? ` and the ${region.type} of ${structureId}` : ''}`;
  return ok(await chart(locationsMap({ heading, points, region, regionNote, land: naturalEarthLandPolygons().polygons }), input.format));
}

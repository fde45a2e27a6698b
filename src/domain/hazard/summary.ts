// Hazard summaries for GET /hazard: pure functions over parsed feed records, each returning a plain
// JSON-ready object (full precision, never NaN or ±Infinity: null instead) that names its method,
// radius and assumptions.
//
//   quakeSummary   earthquake catalogs (ComCat)         summary-quakes.ts
//   seriesSummary  daily series (rain, wind, flow, ...)  summary-series.ts
//   trackSummary   tropical-cyclone best tracks          summary-tracks.ts
//   reportSummary  storm reports and mapped fires        summary-reports.ts
//   stateEventSummary  state outage event records (OE-417)  summary-outages.ts

export { DISTANCE_METHOD, type PointOut, type RecordYears, type YearSpan } from './summary-common.js';
export * from './summary-quakes.js';
export * from './summary-series.js';
export * from './summary-tracks.js';
export * from './summary-reports.js';
export * from './summary-outages.js';

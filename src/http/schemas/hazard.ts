// GET /hazard: what the pinned record says about one point.
import { NUMBER, OBJECT, STRING, operation, queryOf, shape, text } from './operation.js';

export const hazardAtPoint = operation({
  id: 'readHazard',
  summary: 'What the pinned record says about one point, per covering snapshot',
  query: queryOf({
    peril: text(undefined, 'The peril looked up (GET /health and the docs list the perils with pinned data).'),
    lat: text('latitude', 'Latitude in decimal degrees, -90 to 90.'),
    lon: text('longitude', 'Longitude in decimal degrees, -180 to 180.'),
  }, ['peril', 'lat', 'lon']),
  errors: ['invalid_request', 'unsupported_peril', 'outside_feed_coverage'],
  responses: {
    200: {
      description: 'One summary per pinned snapshot covering the point; history, not a forecast.',
      schema: shape('A hazard lookup.', {
        schema_version: STRING,
        peril: STRING,
        point: shape('The point asked.', { latitude: NUMBER, longitude: NUMBER }),
        summaries: { type: 'array', items: shape('What one snapshot says.', { feed: OBJECT, coverage: OBJECT, summary: OBJECT }) },
        statement: STRING,
      }),
    },
  },
});

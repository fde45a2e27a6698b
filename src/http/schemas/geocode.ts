// GET /geocode: candidate points for one address or place name.
import { NUMBER, STRING, operation, queryOf, shape, text } from './operation.js';

export const geocodeQuery = operation({
  id: 'geocode',
  summary: 'Candidate points for one address or place name',
  description: 'Off unless the environment enables geocoding. The text is sent to the configured public geocoders (or looked up in the offline gazetteer): send a location, never a person\'s name.',
  query: queryOf({
    q: { type: 'string', minLength: 1, maxLength: 300, description: 'One address or place name ("10 Downing Street, London", "Lyon, France").' },
    limit: text('geocode-limit', 'Most candidates answered, 1 to 20; default 5.'),
  }, ['q']),
  errors: ['invalid_request', 'geocoder_unavailable'],
  responses: {
    200: {
      description: 'Candidates best first (an empty list when the geocoders found nothing), with the attribution lines to show beside them.',
      schema: shape('A geocoding answer.', {
        schema_version: STRING,
        query: shape('The query as read: its text, limit and shape (address or place).', { q: STRING, limit: NUMBER, shape: { enum: ['address', 'place'] } }),
        candidates: {
          type: 'array',
          items: shape('A candidate point.', {
            latitude: NUMBER,
            longitude: NUMBER,
            precision: { enum: ['rooftop', 'street', 'postcode', 'locality', 'region', 'country'] },
            label: STRING,
            geocoder: STRING,
          }),
        },
        attribution: { type: 'array', items: STRING },
        asked: { type: 'array', items: shape('A geocoder asked and what came of it.', { geocoder: STRING, outcome: { enum: ['answered', 'empty', 'failed'] }, reason: STRING }, ['geocoder', 'outcome']) },
      }),
    },
  },
});

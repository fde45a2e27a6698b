// The exposure of the lanes that read points with a value, as a JSON Schema: bare points, or a
// stored object's schedule by its id (a location's value is its buildings plus contents value).
export const POINT_SCHEMA = {
  type: 'object',
  required: ['lat', 'lon', 'value'],
  properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lon: { type: 'number', minimum: -180, maximum: 180 }, value: { type: 'number', minimum: 0 } },
} as const;

export const OBJECT_EXPOSURE = { type: 'object', required: ['object_id'], additionalProperties: false, properties: { object_id: { type: 'string', description: 'One of your stored objects.' } } } as const;

export const PLACES_EXPOSURE = {
  oneOf: [
    { type: 'object', required: ['points'], additionalProperties: false, properties: { points: { type: 'array', items: POINT_SCHEMA } } },
    OBJECT_EXPOSURE,
  ],
} as const;

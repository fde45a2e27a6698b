// POST /exposure-codes and POST /multi-building-flags: schedule rows to the exposure coder.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { CODING_LIMITS, codeExposureRows, flagMultiBuildingRows } from '../../app/exposure-coding.js';
import { answer } from '../answer.js';
import { callerOf } from './accounts.js';
import * as schema from '../schemas/coding.js';

export function codingRoutes(app: FastifyInstance, services: Services) {
  // A body over 192 KiB is refused 413 payload_too_large before it is read whole.
  const limits = { bodyLimit: CODING_LIMITS.bodyBytes };
  app.post('/exposure-codes', { ...schema.exposureCodes, ...limits }, async (request) => {
    const { rows } = request.body as { rows: string[] };
    return answer(await codeExposureRows(services, { accountId: callerOf(request).accountId, rows }));
  });
  app.post('/multi-building-flags', { ...schema.multiBuildingFlags, ...limits }, async (request) => {
    const { rows } = request.body as { rows: string[] };
    return answer(await flagMultiBuildingRows(services, { accountId: callerOf(request).accountId, rows }));
  });
}

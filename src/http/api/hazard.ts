// GET /hazard?peril&lat&lon: what the pinned record says about one point, per covering snapshot.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { refusals } from '../../kernel/refusal.js';
import { hazardAt } from '../../app/hazard.js';
import { answer } from '../answer.js';

export function hazardRoutes(app: FastifyInstance, services: Services) {
  app.get('/hazard', async (request) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const faults: string[] = [];
    for (const [k, v] of Object.entries(query)) {
      if (!['peril', 'lat', 'lon'].includes(k)) faults.push(`unknown parameter ${k} (read: peril, lat, lon)`);
      else if (typeof v !== 'string') faults.push(`parameter ${k} is given more than once`);
    }
    const peril = query.peril as string | undefined;
    if (peril === undefined) faults.push('peril is required');
    const coordinate = (key: 'lat' | 'lon', limit: number) => {
      const raw = query[key];
      if (raw === undefined) { faults.push(`${key} is required`); return NaN; }
      const value = Number(raw);
      if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(value) || Math.abs(value) > limit) {
        faults.push(`${key} must be a decimal number from -${limit} to ${limit}`);
      }
      return value;
    };
    const latitude = coordinate('lat', 90);
    const longitude = coordinate('lon', 180);
    if (faults.length > 0) throw refusals.invalidRequest(422, `The query is not acceptable: ${faults.join('; ')}.`, faults);
    return answer(await hazardAt(services, { peril: peril!, latitude, longitude }));
  });
}

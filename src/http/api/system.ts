// GET /health: answers 200 when the environment is up, with what the service offers.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { canonicalJson } from '../canonical-json.js';
import { ERROR_SCHEMA_VERSION } from '../errors.js';
import { JOB_SCHEMA_VERSION } from '../../jobs/view.js';
import { ACCOUNT_SCHEMA_VERSION } from './accounts.js';
import { BEING_RETIRED, DISCOVERY, REGISTRY, VERBS } from './verbs.js';

export const HEALTH_SCHEMA_VERSION = '0.1.0';

export function systemRoutes(app: FastifyInstance, services: Services) {
  // The document never changes while the process runs, so it is written once.
  const body = canonicalJson({
    schema_version: HEALTH_SCHEMA_VERSION,
    status: 'ok',
    verbs: VERBS,
    being_retired: { verbs: BEING_RETIRED, note: 'These verbs still work for existing integrations.' },
    registry: REGISTRY,
    discovery: DISCOVERY,
    build: {
      version: services.config.build.version,
      commit: services.config.build.commit,
      storage: services.database.dialect,
      schema_versions: {
        error: ERROR_SCHEMA_VERSION,
        account: ACCOUNT_SCHEMA_VERSION,
        job: JOB_SCHEMA_VERSION,
        health: HEALTH_SCHEMA_VERSION,
      },
    },
  });
  app.get('/health', { config: { auth: 'none' } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(body));
}

import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { accountRoutes } from './accounts.js';
import { jobRoutes } from './jobs.js';
import { systemRoutes } from './system.js';

export function apiRoutes(app: FastifyInstance, services: Services) {
  systemRoutes(app, services);
  accountRoutes(app, services);
  jobRoutes(app, services);
}

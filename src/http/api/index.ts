import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { accountRoutes } from './accounts.js';
import { analysisRoutes } from './analysis.js';
import { eventRoutes } from './events.js';
import { exchangeRoutes } from './exchange.js';
import { feedRoutes } from './feeds.js';
import { hazardRoutes } from './hazard.js';
import { codingRoutes } from './coding.js';
import { geocodeRoutes } from './geocode.js';
import { ingestRoutes } from './ingest.js';
import { jobRoutes } from './jobs.js';
import { modelRoutes } from './models.js';
import { monitoringRoutes } from './monitoring.js';
import { objectRoutes } from './objects.js';
import { packageRoutes } from './packages.js';
import { structureRoutes } from './structures.js';
import { systemRoutes } from './system.js';

export function apiRoutes(app: FastifyInstance, services: Services) {
  systemRoutes(app, services);
  accountRoutes(app, services);
  jobRoutes(app, services);
  ingestRoutes(app, services);
  objectRoutes(app, services);
  structureRoutes(app, services);
  monitoringRoutes(app, services);
  packageRoutes(app, services);
  feedRoutes(app, services);
  eventRoutes(app, services);
  hazardRoutes(app, services);
  modelRoutes(app, services);
  codingRoutes(app, services);
  geocodeRoutes(app, services);
  analysisRoutes(app, services);
  exchangeRoutes(app, services);
}

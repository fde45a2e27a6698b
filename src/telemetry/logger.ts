// The service's pino logger: JSON lines, each line logged during a request or a job naming its
// request id as reqId (the field Fastify names it by), without a child logger per request.
import pino, { type DestinationStream, type Logger } from 'pino';
import { logFieldsOfWork } from './work.js';

/** Standard error by default: standard output carries the one JSON line per host. */
export function serviceLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino({ level, mixin: logFieldsOfWork }, destination);
}

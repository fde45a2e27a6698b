// GET /metrics on a listener of its own (CATRISK_METRICS_PORT, loopback by default): the service's
// Prometheus series for a scraper on the same machine or network, never on a public host. It is not
// a host of the SPEC: no key, no user agent rule, no rate limit; other paths answer the envelope.
import { createServer, type Server } from 'node:http';
import { ApiError, refusal, refusals, type Refusal } from '../kernel/refusal.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import type { Services } from '../services.js';
import { newRequestId, REQUEST_ID_HEADER } from '../telemetry/request-ids.js';
import { envelope } from './errors.js';

export interface MetricsListener {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the listener when the configuration has a port for it; undefined when it is switched off. */
export async function startMetricsListener(services: Services): Promise<MetricsListener | undefined> {
  const { port, host } = services.config.metrics;
  if (port === undefined) return undefined;
  const server: Server = createServer((request, response) => {
    response.setHeader(REQUEST_ID_HEADER, newRequestId());
    const path = (request.url ?? '/').split('?')[0];
    const refuse = (answer: Refusal) => {
      const error = ApiError.of(answer);
      for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
      response.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8' }).end(canonicalJson(envelope(error)));
    };
    if (path !== '/metrics') return refuse(refusals.notFound(`No route ${request.method} ${path}; this listener serves GET /metrics only`));
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return refuse(refusal(405, 'method_not_allowed', `${request.method} is not served on /metrics; allowed: GET, HEAD`, undefined, { allow: 'GET, HEAD' }));
    }
    services.metrics.exposition().then((text) => {
      response.writeHead(200, { 'content-type': services.metrics.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text);
    }, (error: unknown) => {
      services.log.error({ err: error }, 'metrics scrape failed');
      refuse(refusal(500, 'internal_error', 'The metrics could not be collected.'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => { server.off('error', reject); resolve(); });
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    // A scraper keeps its connection open between scrapes: closing does not wait for it.
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

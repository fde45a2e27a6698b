// The lab's client of the internal connector route (GET /internal/exchange/models/{id}/connector on
// the API host), through the one outbound client: over loopback, with the environment's internal
// credential, never through a proxy. The route's refusal (not found, not granted, not ready,
// credentials unavailable) comes back as the same refusal, so the lab answers with it.
import { refusal, type Refusal } from '../kernel/refusal.js';
import { ok, refused } from '../kernel/result.js';
import { OutboundClient, OutboundError } from './http-client.js';
import type { ExchangeConnector, ExchangeConnectors } from './ports.js';

export interface InternalRoute {
  /** Where the API host is reached on this machine; undefined until it listens (or when this process serves none and none is configured). */
  readonly apiUrl: () => string | undefined;
  /** The environment's internal credential (CATRISK_INTERNAL_TOKEN). Never logged. */
  readonly token: string;
  readonly userAgent: string;
}

export function internalConnectors(route: InternalRoute): ExchangeConnectors {
  const client = new OutboundClient({ name: 'the internal connector route', userAgent: route.userAgent, timeoutMs: 10_000, maxBytes: 64 * 1024, minIntervalMs: 0 });
  return {
    async connector(modelId, accountId) {
      const base = route.apiUrl();
      if (!base) return refused(refusal(503, 'server_error', 'The lab cannot reach the internal connector route: this process serves no API host and CATRISK_INTERNAL_API_URL is not set.'));
      let answer;
      try {
        answer = await client.send(`${base}/internal/exchange/models/${encodeURIComponent(modelId)}/connector?account_id=${encodeURIComponent(accountId)}`, {
          method: 'GET', headers: { authorization: `Bearer ${route.token}` },
        });
      } catch (error) {
        return refused(refusal(503, 'server_error', `The lab could not read the connector: ${error instanceof OutboundError ? error.message : 'the call failed'}.`));
      }
      const body = readJson(answer.body) as ({ error?: Refusal } & ExchangeConnector) | null;
      if (answer.status === 200 && body) {
        const { model_id, name, provider, base_url, model_ref, credentials } = body;
        return ok({ model_id, name, provider, base_url, model_ref, credentials });
      }
      const error = body?.error;
      if (!error) return refused(refusal(503, 'server_error', `The internal connector route answered HTTP ${answer.status}.`));
      return refused(refusal(error.status, error.code, error.message, error.details));
    },
  };
}

function readJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8') || 'null');
  } catch {
    return null;
  }
}

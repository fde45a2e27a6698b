// What the API reports about itself in GET /health: the verbs, the registry surfaces and the
// discovery paths (SPEC: Endpoints, Versioning 7). Each entry names the route that serves it;
// /health lists an entry only when that route is registered, so a name listed is reachable.
export interface Served {
  method: 'GET' | 'POST';
  /** The route in the SPEC's {param} form. */
  path: string;
}

/** The seven verbs, in the SPEC's order, each with the route that starts it. */
export const VERB_ROUTES: ReadonlyArray<Served & { verb: string }> = [
  { verb: 'ingest', method: 'POST', path: '/ingest' },
  { verb: 'analyse', method: 'POST', path: '/objects/{id}/analyse' },
  { verb: 'price', method: 'POST', path: '/objects/{id}/price' },
  { verb: 'structure', method: 'POST', path: '/objects/{id}/structures' },
  { verb: 'backtest', method: 'POST', path: '/structures/{id}/backtest' },
  { verb: 'monitor', method: 'POST', path: '/structures/{id}/monitoring' },
  { verb: 'package', method: 'POST', path: '/objects/{id}/package' },
];

/** Flagged as being retired; they still work for existing integrations. */
export const BEING_RETIRED = ['price', 'monitor', 'package'] as const;

export const REGISTRY_ROUTES: ReadonlyArray<Served & { name: string; what: string }> = [
  { name: 'primitives', method: 'GET', path: '/primitives', what: 'The four primitives a pricing model is composed from: feeds, measurements, transforms and payout functions.' },
  { name: 'compose', method: 'POST', path: '/models', what: 'Composes a pricing model from the four primitives; it is validated, backtested and given a card before it exists.' },
  { name: 'model', method: 'GET', path: '/models/{id}', what: 'A composed model with its validation report and card.' },
  { name: 'run', method: 'POST', path: '/models/{id}/runs', what: 'Runs a composed model against a risk object.' },
];

export const DISCOVERY_ROUTES: ReadonlyArray<Served & { lists: string }> = [
  { method: 'GET', path: '/feeds', lists: 'Every pinned data snapshot with the SHA-256 of its exact bytes and whether its content is served.' },
  { method: 'GET', path: '/primitives', lists: 'The feeds, measurements, transforms and payout functions a pricing model can be composed from.' },
  { method: 'GET', path: '/exchange/models', lists: 'Catastrophe models listed on the exchange by their providers, run on the providers\' own platforms, in name order.' },
];

/** The router's form of a SPEC path: /objects/{id}/price → /objects/:id/price. */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

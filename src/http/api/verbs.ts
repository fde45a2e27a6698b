// What the API reports about itself in GET /health: the seven verbs, the registry surfaces
// and the discovery paths (SPEC: Endpoints, Versioning 7).
export const VERBS = ['ingest', 'analyse', 'price', 'structure', 'backtest', 'monitor', 'package'] as const;

/** Flagged as being retired; they still work for existing integrations. */
export const BEING_RETIRED = ['price', 'monitor', 'package'] as const;

export const REGISTRY = {
  primitives: { method: 'GET', path: '/primitives', what: 'The four primitives a pricing model is composed from: feeds, measurements, transforms and payout functions.' },
  compose: { method: 'POST', path: '/models', what: 'Composes a pricing model from the four primitives; it is validated, backtested and given a card before it exists.' },
  model: { method: 'GET', path: '/models/{id}', what: 'A composed model with its validation report and card.' },
  run: { method: 'POST', path: '/models/{id}/runs', what: 'Runs a composed model against a risk object.' },
};

export const DISCOVERY = [
  { method: 'GET', path: '/feeds', lists: 'Every pinned data snapshot with the SHA-256 of its exact bytes and whether its content is served.' },
  { method: 'GET', path: '/primitives', lists: 'The feeds, measurements, transforms and payout functions a pricing model can be composed from.' },
  { method: 'GET', path: '/exchange/models', lists: 'Catastrophe models listed on the exchange by their providers, run on the providers\' own platforms, in name order.' },
];

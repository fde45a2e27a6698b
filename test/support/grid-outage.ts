// grid_outage structures the state event tests share (backtest, price, HTTP).

/** Florida: one occurrence of at least 250,000 customers pays a quarter, 500,000 half, 1,000,000 the limit. */
export const FLORIDA_OUTAGE = {
  peril: { code: 'grid_outage' },
  trigger: {
    type: 'parametric_index', data_sources: [{ feed_id: 'doe-oe417-disturbance-events', version: '2023-12-30' }],
    measurement: { variable: 'customers_affected', state: 'FL' }, aggregation_window: { duration: 'P3D' },
    payout: { function: 'ladder', levels: [{ at_least: 250000, fraction: 0.25 }, { at_least: 500000, fraction: 0.5 }, { at_least: 1000000, fraction: 1 }] },
  },
  financial_structure: { currency: 'USD', limit: 1000000, annual_limit: 1000000 },
  period: { start: '2027-01-01', end: '2027-12-31' },
};


// The structures issue's acceptance bodies, exactly as later checks send them (as a PATCH).

export const ACCEPTANCE_BODIES: Record<string, unknown> = {
  earthquake: { peril: { code: 'earthquake', region: { type: 'box', min_latitude: 32.0, max_latitude: 36.0, min_longitude: -121.0, max_longitude: -114.0 } },
    trigger: { type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'usgs-comcat-m6-california', version: '2022-12-20' }], measurement: { variable: 'magnitude', max_depth_km: 70 }, aggregation_window: { duration: 'P7D' },
      payout: { function: 'ladder', levels: [{ at_least: 6.5, fraction: 0.25 }, { at_least: 7.0, fraction: 0.5 }, { at_least: 7.5, fraction: 1.0 }] } },
    financial_structure: { currency: 'USD', limit: 10000000, attachment: 0 }, period: { start: '2027-01-01', end: '2027-12-31' } },
  flood: { peril: { code: 'flood' },
    trigger: { type: 'parametric_index', data_sources: [{ feed_id: 'usgs-nwis-04119000-discharge', version: '2017-10-18' }], measurement: { variable: 'discharge', aggregation: 'mean' }, aggregation_window: { duration: 'P3D' },
      payout: { function: 'linear', attachment: 25000, exhaustion: 40000, basis: 'term_maximum' } },
    financial_structure: { currency: 'USD', limit: 5000000, attachment: 0 }, period: { start: '2027-03-01', end: '2027-05-31' } },
  tropical_cyclone: { peril: { code: 'tropical_cyclone', region: { type: 'box', min_latitude: 25.0, max_latitude: 26.5, min_longitude: -81.0, max_longitude: -79.5 } },
    trigger: { type: 'parametric_index', data_sources: [{ feed_id: 'noaa-nhc-hurdat2-atlantic', version: '2024-11-18' }], measurement: { variable: 'max_sustained_wind_in_gate', unit: 'kt' },
      payout: { function: 'ladder', levels: [{ at_least: 64, fraction: 0.25 }, { at_least: 96, fraction: 0.5 }, { at_least: 113, fraction: 1.0 }] } },
    financial_structure: { currency: 'USD', limit: 10000000, attachment: 0 }, period: { start: '2027-06-01', end: '2027-11-30' } },
  weather_station: { peril: { code: 'weather_station' },
    trigger: { type: 'parametric_index', data_sources: [{ feed_id: 'ghcnd-usw00012816-prcp', version: '2024-08-16' }], measurement: { variable: 'precipitation', aggregation: 'sum', unit: 'mm' }, aggregation_window: { duration: 'P3D' },
      payout: { function: 'linear', attachment: 150, exhaustion: 300, basis: 'term_maximum' } },
    financial_structure: { currency: 'USD', limit: 2000000, attachment: 0 }, period: { start: '2027-06-01', end: '2027-10-31' } },
  wildfire: { peril: { code: 'wildfire', region: { type: 'box', min_latitude: 38.0, max_latitude: 42.0, min_longitude: -124.5, max_longitude: -119.0 } },
    trigger: { type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'usgs-mtbs-northern-california', version: '2020-11-17' }], measurement: { variable: 'burned_acres' }, aggregation_window: { duration: 'P30D' },
      payout: { function: 'ladder', levels: [{ at_least: 100000, fraction: 0.5 }, { at_least: 250000, fraction: 1.0 }] } },
    financial_structure: { currency: 'USD', limit: 5000000, attachment: 0 }, period: { start: '2027-01-01', end: '2027-12-31' } },
};

/** Denver hail with a seasonal term, an annual aggregate attachment and an annual limit (not an acceptance body). */
export const DENVER_HAIL = {
  peril: { code: 'severe_convective_storm', region: { type: 'box', min_latitude: 39.6, max_latitude: 39.9, min_longitude: -105.1, max_longitude: -104.6 } },
  trigger: {
    type: 'parametric_cat_in_a_box', data_sources: [{ feed_id: 'noaa-spc-hail-denver', version: '2011-08-19' }],
    measurement: { variable: 'hail_diameter', unit: 'in' }, aggregation_window: { duration: 'P1D' },
    payout: { function: 'ladder', levels: [{ at_least: 1.75, fraction: 0.25 }, { at_least: 2.75, fraction: 1 }] },
  },
  financial_structure: { currency: 'USD', limit: 1000000, attachment: 250000, annual_limit: 1500000 },
  period: { start: '2027-04-01', end: '2027-09-30' },
};

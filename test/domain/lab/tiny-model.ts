// A hand-built PiWind-shaped model: two wind cells sharing an edge, one storm-surge cell over the
// first, three events (the third never occurs), four periods. Every figure below is worked by hand.
//
// Damage bins: 1 [0,0] → 0; 2 [0,0.2] → 0.1; 3 [0.2,0.6] → 0.4; 4 [1,1] → 1.
// Vulnerabilities (P(damage bin | intensity bin)):
//   1 WTC buildings  I1: .5 .3 .2 0    I2: 0 .2 .5 .3
//   2 WTC contents   I1: .8 .2 0 0     I2: .4 .4 .2 0
//   3 WSS both       I3: 0 0 .2 .8
// Footprint: event 1: cell 1 (ap 1) I1 .6 / I2 .4; cell 2 (ap 2) I2 1; surge cell (ap 11) I3 1.
//            event 2: cell 2 I1 1.        event 3: cell 1 I2 1 (not in the occurrence file).
// Occurrence: event 1 in periods 1 and 3, event 2 in period 3; 4 periods stated.
//
// Effective distributions and mean damage ratios:
//   v1 e1 ap1: .6·[.5 .3 .2 0] + .4·[0 .2 .5 .3] = [.30 .26 .32 .12] → .026 + .128 + .12 = .274
//   v2 e1 ap1: .6·[.8 .2 0 0] + .4·[.4 .4 .2 0] = [.64 .28 .08 0]   → .028 + .032 = .06
//   v1 e1 ap2: [0 .2 .5 .3] → .52      v2 e1 ap2: [.4 .4 .2 0] → .12
//   v1 e2 ap2: [.5 .3 .2 0] → .11      v3 e1 ap11: [0 0 .2 .8] → .08 + .8 = .88

export const TINY_TEXTS: Record<string, string> = {
  'damage_bin_dict.csv': 'bin_index,bin_from,bin_to,interpolation,damage_type\n1,0,0,0,0\n2,0,0.2,0.1,0\n3,0.2,0.6,0.4,0\n4,1,1,1,0\n',
  'intensity_bin_dict.csv': 'bin_index,bin_from,bin_to,interpolation,interval_type\n1,0,10,5,1202\n2,10,20,15,1202\n3,0,5,2.5,1203\n',
  'events_p.csv': 'event_id\n1\n2\n3\n',
  'occurrence_lt.csv': 'event_id,period_no,occ_year,occ_month,occ_day\n1,1,1,1,1\n2,3,3,1,1\n1,3,3,2,1\n',
  'footprint.csv': [
    'event_id,areaperil_id,intensity_bin_id,probability',
    '1,1,1,0.6', '1,1,2,0.4', '1,2,2,1', '1,11,3,1',
    '2,2,1,1',
    '3,1,2,1',
  ].join('\n') + '\n',
  'vulnerability.csv': [
    'vulnerability_id,intensity_bin_id,damage_bin_id,probability',
    '1,1,1,0.5', '1,1,2,0.3', '1,1,3,0.2',
    '1,2,2,0.2', '1,2,3,0.5', '1,2,4,0.3',
    '2,1,1,0.8', '2,1,2,0.2',
    '2,2,1,0.4', '2,2,2,0.4', '2,2,3,0.2',
    '3,3,3,0.2', '3,3,4,0.8',
  ].join('\n') + '\n',
  // Cell 1: lon -0.91..-0.90, lat 52.74..52.75; cell 2: lon -0.90..-0.89, same lats (shared edge at -0.90).
  'areaperil_dict.csv': [
    'PERIL_ID,COVERAGE_TYPE,LON1,LAT1,LON2,LAT2,LON3,LAT3,LON4,LAT4,AREA_PERIL_ID',
    'WTC,1,-0.91,52.74,-0.91,52.75,-0.90,52.74,-0.90,52.75,1',
    'WTC,3,-0.91,52.74,-0.91,52.75,-0.90,52.74,-0.90,52.75,1',
    'WTC,1,-0.90,52.74,-0.90,52.75,-0.89,52.74,-0.89,52.75,2',
    'WTC,3,-0.90,52.74,-0.90,52.75,-0.89,52.74,-0.89,52.75,2',
    'WSS,1,-0.91,52.74,-0.91,52.75,-0.90,52.74,-0.90,52.75,11',
    'WSS,3,-0.91,52.74,-0.91,52.75,-0.90,52.74,-0.90,52.75,11',
  ].join('\n') + '\n',
  'vulnerability_dict.csv': 'PERIL_ID,COVERAGE_TYPE,OCCUPANCYCODE,VULNERABILITY_ID\nWTC,1,1050,1\nWTC,3,1050,2\nWSS,1,1050,3\nWSS,3,1050,3\n',
  'lookup_config.json': JSON.stringify({
    builtin_lookup_type: 'new_lookup',
    step_definition: {
      peril: { type: 'rtree', columns: ['latitude', 'longitude'], parameters: { file_path: 'areaperil_dict.parquet', file_type: 'parquet', id_columns: ['area_peril_id'], nearest_neighbor_min_distance: -1 } },
      split_loc_perils_covered: { type: 'split_loc_perils_covered', columns: ['locperilscovered'], parameters: { model_perils_covered: ['WTC', 'WSS'] } },
      create_coverage_type: { type: 'simple_pivot', parameters: { pivots: [{ new_cols: { coverage_type: 1 } }, { new_cols: { coverage_type: 3 } }] } },
      vulnerability: { type: 'merge', columns: ['peril_id', 'coverage_type', 'occupancycode'], parameters: { file_path: 'vulnerability_dict.csv', id_columns: ['vulnerability_id'] } },
    },
    strategy: ['split_loc_perils_covered', 'peril', 'create_coverage_type', 'vulnerability'],
  }),
  'model_settings.json': JSON.stringify({ model_default_samples: 10 }),
};

/** Places of the tiny exposure, with what each should come to. */
export const TINY_LOCATIONS = [
  // A: cell 1 and the surge cell, both perils, buildings and contents.
  { ref: 'A', latitude: 52.745, longitude: -0.905, perils_covered: 'WW1', occupancy_code: 1050, buildings_value: 100_000, contents_value: 50_000 },
  // B: cell 2, wind only, no contents (the contents item is dropped).
  { ref: 'B', latitude: 52.745, longitude: -0.895, perils_covered: 'WTC', occupancy_code: 1050, buildings_value: 200_000, contents_value: 0 },
  // C: exactly on the edge shared by cells 1 and 2: the lower id (cell 1).
  { ref: 'C', latitude: 52.745, longitude: -0.9, perils_covered: 'WW2', occupancy_code: 1050, buildings_value: 10_000, contents_value: null },
  { ref: 'D', latitude: 52.70, longitude: -0.905, perils_covered: 'WTC', occupancy_code: 1050, buildings_value: 1, contents_value: 1 },
  { ref: 'E', latitude: 52.745, longitude: -0.905, perils_covered: 'QEQ;OO1', occupancy_code: 1050, buildings_value: 1, contents_value: 1 },
  // F: inside the grid (cell 2) but covering storm surge only, which has no cell there.
  { ref: 'F', latitude: 52.745, longitude: -0.895, perils_covered: 'WSS', occupancy_code: 1050, buildings_value: 1, contents_value: 1 },
  { ref: 'G', latitude: 52.745, longitude: -0.905, perils_covered: 'WTC', occupancy_code: 9999, buildings_value: 1, contents_value: 1 },
  { ref: 'H', latitude: 52.745, longitude: -0.905, perils_covered: 'WTC', occupancy_code: 1050, buildings_value: 0, contents_value: 0 },
  { ref: 'I', latitude: null, longitude: -0.905, perils_covered: 'WTC', occupancy_code: 1050, buildings_value: 1, contents_value: 1 },
];

export const TINY_UNMODELED = [
  { index: 3, reason: 'outside_demonstration_footprint' },
  { index: 4, reason: 'no_model_peril_covered' },
  { index: 5, reason: 'no_area_peril' },
  { index: 6, reason: 'no_vulnerability' },
  { index: 7, reason: 'no_insured_value' },
  { index: 8, reason: 'no_coordinates' },
];

// Hand-worked analytical event losses (allocation rule 1 per coverage):
//   event 1: A buildings min(1, .274 + .88)·100,000 = 100,000 (WTC 100,000·.274/1.154, WSS the rest);
//            A contents (.06 + .88)·50,000 = 47,000; B .52·200,000 = 104,000; C .274·10,000 = 2,740
//            → 253,740.00
//   event 2: B .11·200,000 = 22,000.00 (cell 1 and the surge cell are not hit)
//   event 3: A .52·100,000 + .12·50,000 = 58,000; C .52·10,000 = 5,200 → 63,200.00 (never occurs)
//   periods: 1 → 253,740; 2 → 0; 3 → 22,000 + 253,740 = 275,740; 4 → 0.  AAL = 529,480 / 4 = 132,370.00
export const TINY_EVENT_LOSSES = new Map([[1, 253_740], [2, 22_000], [3, 63_200]]);
export const TINY_AAL = 132_370;

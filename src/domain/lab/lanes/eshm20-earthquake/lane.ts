// The probabilistic European and Turkish earthquake lane: ESHM20's own published source branches
// (the area-source branch by default, or the fault-source branch; the catalog-derived demonstration
// model as a fallback the spec may name), the ESHM20 ground-motion logic tree as ESRM20 publishes
// it, seeded correlated fields and the GEM vulnerability functions; lab-metrics/1.
import { ok, refused } from '../../../../kernel/result.js';
import { refusal } from '../../../../kernel/refusal.js';
import { placesOf, type PlaceExposure } from '../../engine/places.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { labLane, modelOf, placesSpec } from '../../lane.js';
import { snapshotListing, unavailable, type PinnedSnapshot } from '../../inputs.js';
import { PLACES_EXPOSURE } from '../places-exposure.js';
import { exposureTerms } from '../../engine/place-terms.js';
import { LANE_OED_PERILS, OBJECT_TERMS_WORDS, oedSpecIdentity, PERIL_GROUPS_INPUT, termsResultProperties } from '../oed-terms.js';
import { DEMO_SOURCE_MODEL } from '../earthquake/demo-source-model.js';
import { GEM_VULNERABILITY, vulnerabilityFilesListing } from '../earthquake/vulnerability-listing.js';
import { MINIMUM_MAGNITUDE } from '../earthquake/eshm20-source-sampling.js';
import {
  BUILDING_CLASSES, DEFAULT_SOURCE_MODEL, ESHM20_BRANCHES, ESHM20_PLACES_MAX, ESHM20_REACH_KM, ESHM20_YEARS_PER_BRANCH, SITE_VS30, SOURCE_MODELS,
  readBuildingClass, readSourceModel, runEshm20, type BuildingClassId, type Eshm20Source, type SourceModelId,
} from '../earthquake/eshm20-lane.js';

/**
 * The pinned inputs besides the vulnerability functions: ESHM20's area-source and fault-source
 * branches, the catalog the fallback model is built from, and the ESHM20 shallow-crust GMPE logic
 * tree as ESRM20 publishes it.
 */
export const ESHM20_INPUTS = {
  area_sources: { feed_id: 'efehr-eshm20-source-model-branches', version: '2023-11-22', file: 'asm_ver12e_winGT_fs017_lo_abgrs_maxmag_upp.xml' },
  fault_sources: { feed_id: 'efehr-eshm20-source-model-branches', version: '2023-11-22', file: 'fs_ver09e_model_aGR_SRL_ML_fMthr.xml' },
  catalog: { feed_id: 'usgs-comcat-m6-turkey', version: '2023-02-20' },
  gmpe_logic_tree: { feed_id: 'esrm20-scenario-events', version: '2023-03-08', file: 'gmpe_logic_tree_5br_shallow_default.xml' },
} as const;

const NOT_AS_READ = 'The pinned inputs of the probabilistic earthquake lane are not as the lane reads them.';

/** A pinned file's identity: its snapshot's, the file's name and its own sha256. */
function fileListing(s: PinnedSnapshot, file: string): Record<string, unknown> {
  return { ...snapshotListing(s), file, sha256_file: s.files.find((f) => f.name === file)?.sha256 ?? null };
}

export const eshm20Earthquake = labLane({
  id: 'openquake-eshm20-eq',
  lane: 'eshm20-earthquake',
  engine: 'openquake',
  version: 'eshm20-sources-2.0.0-r2',
  revision: 'r2',
  label: 'Probabilistic earthquake losses computed by this service in the manner of the OpenQuake engine\'s event-based risk calculator, on a published ESHM20 source branch (one branch of its weighted logic tree, not the weighted model), the ESHM20 ground-motion logic tree, seeded correlated fields and GEM vulnerability functions (CC BY-NC-SA 4.0, non-commercial use only); distinct from the registry\'s validated models.',
  members: {
    building_class: {
      schema: { enum: BUILDING_CLASSES.map((c) => c.id) },
      description: `required, one of ${BUILDING_CLASSES.map((c) => `${c.id} (${c.taxonomy})`).join(', ')}: the GEM taxonomy string of the pinned structural vulnerability function it reads`,
    },
    source_model: {
      schema: { enum: [...SOURCE_MODELS] },
      description: `optional, default ${DEFAULT_SOURCE_MODEL}: eshm20_area_sources (ESHM20's published area-source branch, 375 sources), eshm20_fault_sources (its fault-source branch, 1,003 faults, without the smoothed-seismicity background ESHM20 pairs with it, so losses are understated), or catalog_demonstration (the fallback model fitted on the pinned ComCat Turkey catalog, not ESHM20)`,
    },
  },
  exposure: {
    schema: PLACES_EXPOSURE,
    description: `{points: [{lat, lon, value}]} (up to ${ESHM20_PLACES_MAX}) or {object_id} (a location's value is its buildings plus contents value; ${OBJECT_TERMS_WORDS}); every place at Vs30 ${SITE_VS30} m/s; on ESHM20's sources a place farther than ${ESHM20_REACH_KM} km from every source of the branch is unmodeled (on the fallback model, one more than ${DEMO_SOURCE_MODEL.site_reach_km} km from its ${DEMO_SOURCE_MODEL.grid_spacing_deg}° grid over the catalog's Turkey box)`,
  },
  notes: {
    sample: `${ESHM20_BRANCHES} logic-tree branches, each drawing its ESHM20 ground-motion branch by weight (and on the fallback model its b-value and Mmax), ${ESHM20_YEARS_PER_BRANCH} sample years each: ${ESHM20_BRANCHES * ESHM20_YEARS_PER_BRANCH} years; seeded, so one spec gives one result`,
    source_branches: `ESHM20's own published source branches (EFEHR, pinned): area sources with their truncated Gutenberg-Richter MFDs, depths and nodal planes, or simple faults floating their ruptures, by OpenQuake's rules (truncated_gr.py, area.py, point.py, simple_fault.py), ruptures of M >= ${MINIMUM_MAGNITUDE}; each is one branch of ESHM20's weighted source-model tree, not the weighted model, and the result says which`,
    result: 'lab-metrics/1 (AAL with standard deviation and error, OEP/AEP to 1 in 1,000 with TVaR, 1,000-year blocks, per-place shares, largest events, event and year loss tables) with the source model, the sampled branches and their AALs',
  },
  caps: {
    places_max: ESHM20_PLACES_MAX, sample_years: ESHM20_BRANCHES * ESHM20_YEARS_PER_BRANCH, branches: ESHM20_BRANCHES, years_per_branch: ESHM20_YEARS_PER_BRANCH,
    site_model_reach_km: ESHM20_REACH_KM, rupture_reach_km: ESHM20_REACH_KM, minimum_magnitude: MINIMUM_MAGNITUDE,
  },
  inputs: {
    vulnerability: { reader: 'structural-vulnerability', source: { pin: GEM_VULNERABILITY } },
    peril_groups: PERIL_GROUPS_INPUT,
    area_sources: { reader: 'source-model', source: { pin: ESHM20_INPUTS.area_sources } },
    fault_sources: { reader: 'source-model', source: { pin: ESHM20_INPUTS.fault_sources } },
    catalog: { reader: 'quake-catalog', source: { pin: ESHM20_INPUTS.catalog } },
    gmpe_logic_tree: { reader: 'gmpe-logic-tree', source: { pin: ESHM20_INPUTS.gmpe_logic_tree } },
  },

  normalize(spec, exposure) {
    const read = placesSpec(exposure, ESHM20_PLACES_MAX, (details) => ({ building_class: readBuildingClass(spec, details), source_model: readSourceModel(spec, details) }));
    return read.ok ? ok({ ...modelOf(this), ...read.value }) : read;
  },

  listing(found) {
    const { catalog, gmpe_logic_tree: esrm20, area_sources: area, fault_sources: faults } = found;
    const pins = ESHM20_INPUTS;
    return {
      pinned_inputs: {
        vulnerability: vulnerabilityFilesListing(found.vulnerability),
        area_sources: area ? { ...fileListing(area, pins.area_sources.file), license: area.license ?? null } : unavailable(pins.area_sources),
        fault_sources: faults ? { ...fileListing(faults, pins.fault_sources.file), license: faults.license ?? null } : unavailable(pins.fault_sources),
        catalog: catalog ? { ...snapshotListing(catalog), title: catalog.title ?? null, coverage: catalog.coverage } : unavailable(pins.catalog),
        gmpe_logic_tree: esrm20 ? { ...fileListing(esrm20, pins.gmpe_logic_tree.file), license: esrm20.license ?? null } : unavailable(pins.gmpe_logic_tree),
        building_classes: BUILDING_CLASSES.map((c) => ({ id: c.id, taxonomy: c.taxonomy, label: c.label })),
      },
    };
  },

  run({ vulnerability, catalog, gmpe_logic_tree: tree, area_sources: area, fault_sources: faults, peril_groups }, spec: { building_class: BuildingClassId; source_model?: SourceModelId; exposure: PlaceExposure }, { progress }) {
    const places = placesOf(spec.exposure);
    // A stored schedule is counted here, on the job; points were counted on the request.
    if (places.length > ESHM20_PLACES_MAX) return refused(runSpecRefusal([`exposure may hold up to ${ESHM20_PLACES_MAX} places; the object holds ${places.length}`]));
    const cls = BUILDING_CLASSES.find((c) => c.id === spec.building_class)!;
    const fn = vulnerability.value.get(cls.taxonomy);
    if (!fn) return refused(refusal(503, 'server_error', NOT_AS_READ));
    const choice = spec.source_model ?? DEFAULT_SOURCE_MODEL;
    let source: Eshm20Source;
    const read: Record<string, unknown> = { vulnerability: snapshotListing(vulnerability.snapshot) };
    if (choice === 'catalog_demonstration') {
      const { catalog: events, box, period_end: periodEnd } = catalog.value;
      if (events.kind !== 'quake' || !box || typeof periodEnd !== 'string') return refused(refusal(503, 'server_error', NOT_AS_READ));
      source = { kind: 'catalog_demonstration', catalog: events.events, box, periodEnd };
      read.catalog = snapshotListing(catalog.snapshot);
    } else {
      const [input, pin] = choice === 'eshm20_area_sources' ? [area, ESHM20_INPUTS.area_sources] : [faults, ESHM20_INPUTS.fault_sources];
      source = { kind: choice === 'eshm20_area_sources' ? 'area_sources' : 'fault_sources', model: input.value, file: pin.file };
      read[choice === 'eshm20_area_sources' ? 'area_sources' : 'fault_sources'] = { ...fileListing(input.snapshot, pin.file), credit_line: input.snapshot.credit_line ?? null };
    }
    read.gmpe_logic_tree = { ...fileListing(tree.snapshot, ESHM20_INPUTS.gmpe_logic_tree.file), credit_line: tree.snapshot.credit_line ?? null };
    const terms = exposureTerms(spec.exposure, peril_groups.value, LANE_OED_PERILS.earthquake);
    const result = runEshm20({
      places, buildingClass: spec.building_class, vulnerability: fn, source, gmpeTree: tree.value, terms,
      ...(progress ? { onRuptures: progress } : {}),
    });
    return ok({ model: { id: this.id, version: this.version, engine: this.engine, label: this.label }, inputs: read, source_model_choice: choice, ...result, oed_spec: oedSpecIdentity(peril_groups.snapshot) });
  },

  progress: (done, total) => `Computed the ground motion and losses of ${done} of ${total} sampled ruptures.`,

  result: {
    type: 'object',
    required: ['lane', 'model', 'inputs', 'source_model_choice', 'source_model', 'site_model', 'sample', 'branches', 'ground_motion', 'vulnerability', 'exposure', 'unmodeled', 'metrics', 'licence'],
    properties: {
      lane: { const: 'probabilistic_earthquake_europe' },
      model: { type: 'object' },
      inputs: { type: 'object', description: 'Every pinned input read: feed id, version, snapshot sha256, and the file read with its own sha256.' },
      source_model_choice: { enum: [...SOURCE_MODELS] },
      demonstration: { type: 'string', description: 'Present when the run used the catalog-derived fallback model, not ESHM20.' },
      source_model: { type: 'object', description: 'The source model read: the ESHM20 branch (file, one branch of a weighted tree, the rules applied) or the fallback model fitted on the catalog.' },
      site_model: { type: 'object' },
      sample: { type: 'object' },
      branches: { type: 'array', description: 'The sampled logic-tree branches and their AALs.' },
      ground_motion: { type: 'object' },
      vulnerability: { type: 'object' },
      exposure: { type: 'object' },
      unmodeled: { type: 'object' },
      metrics: { oneOf: [{ $ref: '#/components/schemas/lab-metrics.v1' }, { type: 'null' }] },
      licence: { type: 'string' },
      ...termsResultProperties('each lab-metrics/1, the terms applied rupture by rupture'),
    },
  },
});

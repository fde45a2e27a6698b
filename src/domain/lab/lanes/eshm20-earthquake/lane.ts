// The probabilistic European and Turkish earthquake lane: a demonstration source model fitted on
// the pinned ComCat Turkey catalog (not ESHM20), the ESHM20 ground-motion logic tree as ESRM20
// publishes it, seeded correlated fields and the GEM vulnerability functions; lab-metrics/1.
import { ok, refused } from '../../../../kernel/result.js';
import { refusal } from '../../../../kernel/refusal.js';
import { placesOf, type PlaceExposure } from '../../engine/places.js';
import { runSpecRefusal } from '../../engine/spec-refusal.js';
import { labLane, modelOf, placesSpec } from '../../lane.js';
import { snapshotListing, unavailable } from '../../inputs.js';
import { PLACES_EXPOSURE } from '../places-exposure.js';
import { DEMO_SOURCE_MODEL } from '../earthquake/demo-source-model.js';
import { GEM_VULNERABILITY, vulnerabilityFilesListing } from '../earthquake/vulnerability-listing.js';
import {
  BUILDING_CLASSES, ESHM20_BRANCHES, ESHM20_PLACES_MAX, ESHM20_REACH_KM, ESHM20_YEARS_PER_BRANCH, SITE_VS30,
  readBuildingClass, runEshm20, type BuildingClassId,
} from '../earthquake/eshm20-lane.js';

/**
 * The pinned inputs besides the vulnerability functions: the catalog the demonstration source
 * model is built from, and the ESHM20 shallow-crust GMPE logic tree as ESRM20 publishes it.
 */
export const ESHM20_INPUTS = {
  catalog: { feed_id: 'usgs-comcat-m6-turkey', version: '2023-02-20' },
  gmpe_logic_tree: { feed_id: 'esrm20-scenario-events', version: '2023-03-08', file: 'gmpe_logic_tree_5br_shallow_default.xml' },
} as const;

const NOT_AS_READ = 'The pinned inputs of the probabilistic earthquake lane are not as the lane reads them.';

export const eshm20Earthquake = labLane({
  id: 'openquake-eshm20-eq',
  lane: 'eshm20-earthquake',
  engine: 'openquake',
  version: 'eshm20-demonstration-1.0.0-r1',
  revision: 'r1',
  label: 'Probabilistic earthquake losses computed by this service in the manner of the OpenQuake engine\'s event-based risk calculator, on a demonstration source model built from the pinned ComCat Turkey catalog (not ESHM20), the ESHM20 ground-motion logic tree, seeded correlated fields and GEM vulnerability functions (CC BY-NC-SA 4.0, non-commercial use only); distinct from the registry\'s validated models.',
  members: {
    building_class: {
      schema: { enum: BUILDING_CLASSES.map((c) => c.id) },
      description: `required, one of ${BUILDING_CLASSES.map((c) => `${c.id} (${c.taxonomy})`).join(', ')}: the GEM taxonomy string of the pinned structural vulnerability function it reads`,
    },
  },
  exposure: {
    schema: PLACES_EXPOSURE,
    description: `{points: [{lat, lon, value}]} (up to ${ESHM20_PLACES_MAX}) or {object_id} (a location's value is its buildings plus contents value); every place at Vs30 ${SITE_VS30} m/s; a place more than ${DEMO_SOURCE_MODEL.site_reach_km} km from the site model's grid (the demonstration source model's ${DEMO_SOURCE_MODEL.grid_spacing_deg}° grid over the catalog's Turkey box) is unmodeled`,
  },
  notes: {
    sample: `${ESHM20_BRANCHES} logic-tree branches sampled by weight (b-value, Mmax, ESHM20 ground-motion branch), ${ESHM20_YEARS_PER_BRANCH} sample years each: ${ESHM20_BRANCHES * ESHM20_YEARS_PER_BRANCH} years; seeded, so one spec gives one result`,
    source_model: 'demonstration, not ESHM20 (its source and site models are not pinned): smoothed seismicity and a Gutenberg-Richter law fitted (Aki-Utsu) on the pinned ComCat Turkey catalog; stated on every result',
    result: 'lab-metrics/1 (AAL with standard deviation and error, OEP/AEP to 1 in 1,000 with TVaR, 1,000-year blocks, per-place shares, largest events, event and year loss tables) with the source model, the sampled branches and their AALs',
  },
  caps: {
    places_max: ESHM20_PLACES_MAX, sample_years: ESHM20_BRANCHES * ESHM20_YEARS_PER_BRANCH, branches: ESHM20_BRANCHES, years_per_branch: ESHM20_YEARS_PER_BRANCH,
    site_model_reach_km: DEMO_SOURCE_MODEL.site_reach_km, rupture_reach_km: ESHM20_REACH_KM,
  },
  inputs: {
    vulnerability: { reader: 'structural-vulnerability', source: { pin: GEM_VULNERABILITY } },
    catalog: { reader: 'quake-catalog', source: { pin: ESHM20_INPUTS.catalog } },
    gmpe_logic_tree: { reader: 'gmpe-logic-tree', source: { pin: ESHM20_INPUTS.gmpe_logic_tree } },
  },

  normalize(spec, exposure) {
    const read = placesSpec(exposure, ESHM20_PLACES_MAX, (details) => ({ building_class: readBuildingClass(spec, details) }));
    return read.ok ? ok({ ...modelOf(this), ...read.value }) : read;
  },

  listing(found) {
    const { catalog, gmpe_logic_tree: esrm20 } = found;
    const tree = ESHM20_INPUTS.gmpe_logic_tree;
    return {
      pinned_inputs: {
        vulnerability: vulnerabilityFilesListing(found.vulnerability),
        catalog: catalog ? { ...snapshotListing(catalog), title: catalog.title ?? null, coverage: catalog.coverage } : unavailable(ESHM20_INPUTS.catalog),
        gmpe_logic_tree: esrm20
          ? { ...snapshotListing(esrm20), license: esrm20.license ?? null, file: tree.file, sha256_file: esrm20.files.find((f) => f.name === tree.file)?.sha256 ?? null }
          : unavailable(tree),
        building_classes: BUILDING_CLASSES.map((c) => ({ id: c.id, taxonomy: c.taxonomy, label: c.label })),
      },
    };
  },

  run({ vulnerability, catalog, gmpe_logic_tree: tree }, spec: { building_class: BuildingClassId; exposure: PlaceExposure }, { progress }) {
    const places = placesOf(spec.exposure);
    // A stored schedule is counted here, on the job; points were counted on the request.
    if (places.length > ESHM20_PLACES_MAX) return refused(runSpecRefusal([`exposure may hold up to ${ESHM20_PLACES_MAX} places; the object holds ${places.length}`]));
    const cls = BUILDING_CLASSES.find((c) => c.id === spec.building_class)!;
    const fn = vulnerability.value.get(cls.taxonomy);
    const { catalog: events, box, period_end: periodEnd } = catalog.value;
    if (!fn || events.kind !== 'quake' || !box || typeof periodEnd !== 'string') return refused(refusal(503, 'server_error', NOT_AS_READ));
    const result = runEshm20({
      places, buildingClass: spec.building_class, vulnerability: fn,
      catalog: events.events, box, periodEnd, gmpeTree: tree.value,
      ...(progress ? { onRuptures: progress } : {}),
    });
    return ok({
      model: { id: this.id, version: this.version, engine: this.engine, label: this.label },
      inputs: {
        vulnerability: snapshotListing(vulnerability.snapshot),
        catalog: snapshotListing(catalog.snapshot),
        gmpe_logic_tree: { ...snapshotListing(tree.snapshot), file: ESHM20_INPUTS.gmpe_logic_tree.file, credit_line: tree.snapshot.credit_line ?? null },
      },
      ...result,
    });
  },

  progress: (done, total) => `Computed the ground motion and losses of ${done} of ${total} sampled ruptures.`,

  result: {
    type: 'object',
    required: ['lane', 'model', 'inputs', 'demonstration', 'source_model', 'site_model', 'sample', 'branches', 'ground_motion', 'vulnerability', 'exposure', 'unmodeled', 'metrics', 'licence'],
    properties: {
      lane: { const: 'probabilistic_earthquake_europe' },
      model: { type: 'object' },
      inputs: { type: 'object', description: 'The vulnerability functions, catalog and GMPE logic tree read.' },
      demonstration: { type: 'string' },
      source_model: { type: 'object', description: 'The demonstration source model fitted on the catalog.' },
      site_model: { type: 'object' },
      sample: { type: 'object' },
      branches: { type: 'array', description: 'The sampled logic-tree branches and their AALs.' },
      ground_motion: { type: 'object' },
      vulnerability: { type: 'object' },
      exposure: { type: 'object' },
      unmodeled: { type: 'object' },
      metrics: { oneOf: [{ $ref: '#/components/schemas/lab-metrics.v1' }, { type: 'null' }] },
      licence: { type: 'string' },
    },
  },
});

// Every published schema and engine version, one constant each: a document's version changes here
// and nowhere else.

/** The error envelope (SPEC: Errors). */
export const ERROR_SCHEMA_VERSION = '0.1.0';
/** GET /account. */
export const ACCOUNT_SCHEMA_VERSION = '0.1.0';
/** GET /account/usage. */
export const USAGE_SCHEMA_VERSION = '0.1.0';
/** A job's view (GET /jobs/{id}). */
export const JOB_SCHEMA_VERSION = '0.1.0';
/** GET /health (0.2.0 added feeds: the snapshots loaded). */
export const HEALTH_SCHEMA_VERSION = '0.2.0';
/** GET /ready. */
export const READINESS_SCHEMA_VERSION = '0.1.0';
/** The canonical risk object. */
export const RISK_OBJECT_SCHEMA_VERSION = '0.1.0';
/** A page of an object's locations. */
export const LOCATION_PAGE_SCHEMA_VERSION = '0.1.0';
/** A page of a list (objects, jobs, structures, backtests, lab runs). */
export const LIST_SCHEMA_VERSION = '0.1.0';
/** A stored structure. */
export const STRUCTURE_SCHEMA_VERSION = '0.1.0';
/** The feed listing and a snapshot's description. */
export const FEEDS_SCHEMA_VERSION = '0.1.0';
/** An event catalogue page and an event footprint. */
export const EVENTS_SCHEMA_VERSION = '0.1.0';
/** The schema an event catalogue page names. */
export const EVENT_CATALOGUE_SCHEMA = 'event-catalogue.v0';
/** The schema an event footprint names. */
export const EVENT_FOOTPRINT_SCHEMA = 'event-footprint.v0';
/** A hazard lookup at a point. */
export const HAZARD_SCHEMA_VERSION = '0.1.0';
/** A lab run. */
export const LAB_RUN_SCHEMA_VERSION = '0.1.0';
/** The metrics block every lab lane publishes. */
export const LAB_METRICS_SCHEMA = 'lab-metrics/1';
/** The data room listing. */
export const DATAROOM_SCHEMA_VERSION = '0.1.0';
/** A host's index document (GET / on every host). */
export const HOST_INDEX_SCHEMA_VERSION = '0.1.0';
/** The API contract on the docs host. */
export const API_CONTRACT_SCHEMA_VERSION = '0.1.0';
/** The listing of published schemas on the docs host. */
export const SCHEMA_LISTING_SCHEMA_VERSION = '0.1.0';

/** GET /primitives, the registry's vocabulary. */
export const PRIMITIVES_SCHEMA_VERSION = '0.1.0';
/** A composed model of the registry (GET /models/{id}); its request is schemas/model.v0.json. */
export const MODEL_SCHEMA_VERSION = '0.1.0';
/** A model run's result (the job of POST /models/{id}/runs). */
export const MODEL_RUN_SCHEMA_VERSION = '0.1.0';

/** The backtest engine named on every artifact. 1.1.0: partial years (more than 10% of the term
 * lacking) left out of n; excluded observations listed. */
export const BACKTEST_ENGINE = { name: 'catrisk-backtest', version: '1.1.0' } as const;
/** The technical-price model named on every price. 1.1.0: a minimum record, fitted views only where
 * the sample supports them, rate on line below 1. */
export const PRICING_MODEL = { name: 'catrisk-parametric-technical-price', version: '1.1.0' } as const;
/** The schedule reader, named in every ingest run's content address: the same bytes read by
 * another version are another run. 2: totals rows by their sums, CEDE/EDM value columns, ISO 4217
 * minor units. */
export const INGEST_READER_VERSION = '2';

/** A submission pack (GET /packages/{id}). */
export const PACKAGE_SCHEMA_VERSION = '0.1.0';
/** Answers of POST /exposure-codes and POST /multi-building-flags. */
export const EXPOSURE_CODING_SCHEMA_VERSION = '0.1.0';
/** Answers of GET /geocode. */
export const GEOCODE_SCHEMA_VERSION = '0.1.0';
/** The embedded exposure coder (broker words over the pinned OED lists; multi-building signs). */
export const EMBEDDED_CODER = { name: 'catrisk-embedded-coder', version: '1.0.0' } as const;
/** POST /accumulation. */
export const ACCUMULATION_SCHEMA_VERSION = '0.1.0';
/** An analyse run's document (the analyse job's result). */
export const ANALYSIS_SCHEMA_VERSION = '0.1.0';
/** The analyses an analyse run computes; a change in any figure changes this. */
export const ANALYSIS_ENGINE = { name: 'catrisk-analyse', version: '1.0.0' } as const;

/** A monitoring record (POST /structures/{id}/monitoring, GET /monitoring/{id}) and its webhooks document. */
export const MONITORING_SCHEMA_VERSION = '0.1.0';
/** An exchange listing (schemas/exchange-listing.v0.json is its request; answers carry this). */
export const EXCHANGE_LISTING_SCHEMA_VERSION = '0.1.0';
/** The grants document of an exchange listing (SPEC: Exchange grants document). */
export const EXCHANGE_GRANTS_SCHEMA_VERSION = '0.1.0';
/** A check of an exchange listing's connector (POST /exchange/models/{id}/check). */
export const EXCHANGE_CHECK_SCHEMA_VERSION = '0.1.0';
/** The internal connector document the lab reads. */
export const EXCHANGE_CONNECTOR_SCHEMA_VERSION = '0.1.0';

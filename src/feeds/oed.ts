// The OED reference tables ingest maps against, read from the pinned reference snapshot through the
// verified feed store: its bytes are checked against the manifest's digests, and parsed once per store.
import { parseOedReference, type OedReference } from '../domain/exposure/oed-reference.js';
import { parseOedFieldOrder, type OedFieldOrder } from '../domain/exposure/oed-fields.js';
import { OED_REFERENCE_FEED } from './catalog.js';
import type { FeedStore } from './store.js';

export function oedReference(store: FeedStore | undefined): Promise<OedReference> {
  if (!store) return Promise.reject(new Error(`No feeds directory: the pinned ${OED_REFERENCE_FEED} tables are needed to read schedules (set CATRISK_FEEDS_DIR).`));
  const snapshot = store.get(OED_REFERENCE_FEED);
  if (!snapshot) return Promise.reject(new Error(`No verified ${OED_REFERENCE_FEED} snapshot in ${store.dir}`));
  return store.parsed(snapshot, 'OED reference tables', (_s, files) => {
    const text = (name: string): string => {
      const bytes = files.get(name);
      if (!bytes) throw new Error(`${snapshot.feed_id}/${snapshot.version} has no ${name}`);
      return bytes.toString('utf8');
    };
    return parseOedReference({
      locFields: text('OEDInputFields_Loc.csv'),
      occupancy: text('OccupancyValues.csv'),
      construction: text('ConstructionValues.csv'),
      currency: text('CurrencyValues.csv'),
      perils: text('PerilValues.csv'),
      inputFields: text('OEDInputFields.csv'),
      perilsCovered: text('PerilsCovered.csv'),
    });
  });
}

/** Each OED file's fields in the pinned spec's order (OEDInputFields.csv), for the OED export. */
export function oedFieldOrder(store: FeedStore | undefined): Promise<OedFieldOrder> {
  if (!store) return Promise.reject(new Error(`No feeds directory: the pinned ${OED_REFERENCE_FEED} tables are needed to write OED files (set CATRISK_FEEDS_DIR).`));
  const snapshot = store.get(OED_REFERENCE_FEED);
  if (!snapshot) return Promise.reject(new Error(`No verified ${OED_REFERENCE_FEED} snapshot in ${store.dir}`));
  return store.parsed(snapshot, 'OED field order', (_s, files) => {
    const bytes = files.get('OEDInputFields.csv');
    if (!bytes) throw new Error(`${snapshot.feed_id}/${snapshot.version} has no OEDInputFields.csv`);
    return parseOedFieldOrder(bytes.toString('utf8'));
  });
}

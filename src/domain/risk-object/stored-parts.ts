// A risk object is stored in two parts: its skeleton (every member, with exposure.locations written
// as []) per version, and its locations array once per object (exposure is read-only, so every
// version shares it). The canonical document is the skeleton with the array's bytes put in place of
// that [], byte for byte what canonical JSON of the whole document is. Pure.
import { canonicalJson } from '../../kernel/canonical-json.js';
import { ObjectScanner } from './object-scan.js';

/** An object's skeleton as canonical bytes, and where its locations go. */
export interface SkeletonBytes {
  bytes: Uint8Array;
  /** The index of the '[' of exposure.locations' [] in `bytes`; -1 when there is no such array. */
  slot: number;
}

/** The object held whole as its two parts: the skeleton and the locations array's canonical bytes (brackets included). */
export interface ObjectParts {
  skeleton: SkeletonBytes;
  locations: Buffer;
}

/** The document with its locations array emptied (the document itself when it has none). */
export function skeletonOf<D extends Record<string, unknown>>(document: D): D {
  const exposure = document.exposure as Record<string, unknown> | undefined;
  if (!exposure || typeof exposure !== 'object' || !Array.isArray(exposure.locations)) return document;
  return { ...document, exposure: { ...exposure, locations: [] } };
}

/** Whether a document carries locations (a skeleton's array is empty). */
export function holdsLocations(document: Record<string, unknown>): boolean {
  const locations = (document.exposure as Record<string, unknown> | undefined)?.locations;
  return Array.isArray(locations) && locations.length > 0;
}

/** A skeleton document's canonical bytes and its slot. */
export function skeletonBytes(skeleton: Record<string, unknown>): SkeletonBytes {
  const bytes = Buffer.from(canonicalJson(skeleton), 'utf8');
  return { bytes, slot: locationsSlot(bytes) };
}

/** Where exposure.locations' '[' stands in a skeleton's canonical bytes (-1: none). */
export function locationsSlot(bytes: Buffer): number {
  const scanner = new ObjectScanner();
  scanner.feed(bytes);
  return scanner.skeletonBytes().slot;
}

/** A whole document cut into its two parts. */
export function objectParts(document: Record<string, unknown>): ObjectParts {
  const locations = (document.exposure as Record<string, unknown> | undefined)?.locations;
  return { skeleton: skeletonBytes(skeletonOf(document)), locations: Buffer.from(Array.isArray(locations) ? canonicalJson(locations) : '', 'utf8') };
}

/** The canonical document's size from its parts' sizes. */
export function documentSize(skeleton: SkeletonBytes, locationsSize: number): number {
  return skeleton.slot < 0 ? skeleton.bytes.byteLength : skeleton.bytes.byteLength - 2 + locationsSize;
}

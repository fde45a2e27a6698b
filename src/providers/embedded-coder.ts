// The embedded exposure coder: the domain's readers over the pinned OED tables, with no network.
import { codeRow } from '../domain/coding/classifier.js';
import { readMultiBuilding } from '../domain/coding/multi-building.js';
import type { OedReference } from '../domain/exposure/oed-reference.js';
import { EMBEDDED_CODER } from '../kernel/versions.js';
import type { ExposureCoder, RowCoding, RowMultiBuilding } from './ports.js';

export function embeddedCoder(oed: () => Promise<OedReference>): ExposureCoder {
  return {
    provider: 'embedded',
    model: `${EMBEDDED_CODER.name}/${EMBEDDED_CODER.version}`,
    async codeRows(rows): Promise<Array<RowCoding | null>> {
      const reference = await oed();
      return rows.map((text) => {
        const { occupancy, construction } = codeRow(text, reference);
        return {
          occupancy: { code: occupancy.code, confidence: occupancy.confidence },
          construction: { code: construction.code, confidence: construction.confidence },
        };
      });
    },
    async flagRows(rows): Promise<Array<RowMultiBuilding | null>> {
      return rows.map((text) => ({ probability: readMultiBuilding(text).probability }));
    },
  };
}

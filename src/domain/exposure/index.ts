// Ingest's exposure reader: the public surface of src/domain/exposure.
export { readSchedule, type ReadScheduleOptions } from './read-schedule.js';
export { parseOedReference, type OedReference, type OedReferenceTexts } from './oed-reference.js';
export { ScheduleTable, LOOKAHEAD_RECORDS, type ScheduleTableOptions, type TableOutcome } from './schedule-table.js';
export { DelimitedRecordReader, readDelimitedRecords } from './records.js';
export { JsonLinesReader, readJsonLines } from './json-lines.js';
export { decodeSchedule, type Decoded } from './decode.js';
export { sniffSchedule, type SourceShape } from './sniff.js';
export * from './types.js';

// The ESRM20 scenario repository's losses workbook (losses_selected_damaging_events.xlsx, sheet
// Events): row 1 groups the columns (reported loss data | ESRM20 from the rupture model | ESRM20 from
// ShakeMaps), row 2 names them, then one row per event and a closing " -" row. Read with
// read-excel-file; a row's empty cells are null. Pure: bytes in, rows out.

export interface Esrm20LossRow {
  readonly scenario_id: string;
  /** NCEI/WDS Total Damage ($M), as reported. */
  readonly ncei_damage_musd: number | null;
  /** EM-DAT Total Damages ($M), as reported. */
  readonly emdat_damage_musd: number | null;
  readonly ncei_deaths: number | null;
  /** ESRM20 mean economic loss modelled from the rupture (EUR M), and mean deaths. */
  readonly esrm20_rupture_loss_meur: number | null;
  readonly esrm20_rupture_deaths: number | null;
  /** ESRM20 mean economic loss modelled from ShakeMaps (EUR M). */
  readonly esrm20_shakemap_loss_meur: number | null;
}

type Cell = string | number | boolean | Date | null;
const value = (c: Cell | undefined): number | null => (typeof c === 'number' && Number.isFinite(c) ? c : null);

export async function parseEsrm20Losses(bytes: Uint8Array): Promise<Esrm20LossRow[]> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const { default: readXlsxFile } = await import('read-excel-file/universal');
  const sheet = (await readXlsxFile(buffer)).find((s) => s.sheet === 'Events');
  if (!sheet) throw new Error('ESRM20 losses workbook: no sheet Events');
  const rows = sheet.data as Cell[][];
  const groups = rows[0] ?? [];
  const header = (rows[1] ?? []).map((c) => String(c ?? '').trim());
  const rupture = groups.findIndex((g) => typeof g === 'string' && /Rup[a-z]* Model/i.test(g));
  const shakemaps = groups.findIndex((g) => typeof g === 'string' && /ShakeMaps/.test(g));
  if (header[0] !== 'Scenario_ID' || rupture < 0 || shakemaps < 0) throw new Error('ESRM20 losses workbook: row 1 groups and row 2 header not as published');
  const emdat = header.indexOf('Total Damages ($M)');
  const ncei = header.indexOf('Total Damage ($M)');
  const nceiDeaths = header.indexOf('Total Deaths');
  if (emdat < 0 || ncei < 0 || header[rupture + 1] !== 'Total Mean Damages (EUR M)' || header[shakemaps + 1] !== 'Total Mean Damages (EUR M)') {
    throw new Error('ESRM20 losses workbook: the damage columns are not where the header says');
  }
  return rows.slice(2)
    .filter((r) => typeof r[0] === 'string' && /^[A-Za-z]+_\d/.test(r[0]))
    .map((r) => ({
      scenario_id: r[0] as string,
      ncei_damage_musd: value(r[ncei]),
      emdat_damage_musd: value(r[emdat]),
      ncei_deaths: value(r[nceiDeaths]),
      esrm20_rupture_loss_meur: value(r[rupture + 1]),
      esrm20_rupture_deaths: value(r[rupture]),
      esrm20_shakemap_loss_meur: value(r[shakemaps + 1]),
    }));
}

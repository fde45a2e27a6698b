// Schedules written for the tests (hand-made, not real exposure).

export function smallSchedule(rows = 3): string {
  const lines = ['Location ID,Latitude,Longitude,Building Value,Contents,Occupancy,Construction,Year Built'];
  for (let i = 1; i <= rows; i += 1) {
    lines.push(`L${i},${(34 + i / 100).toFixed(4)},${(-118 - i / 100).toFixed(4)},${1_000_000 + i},${250_000 + i},Office,Reinforced concrete,${1980 + (i % 40)}`);
  }
  return lines.join('\n') + '\n';
}

/** A large generated schedule: about 100 bytes a row. */
export function largeSchedule(rows: number): string {
  const out: string[] = ['Location ID,Street,City,Postcode,Latitude,Longitude,Building Value,Contents,BI,Occupancy,Construction,Year Built'];
  for (let i = 0; i < rows; i += 1) {
    const lat = 25 + ((i * 7919) % 2000) / 100;
    const lon = -120 + ((i * 104729) % 4000) / 100;
    out.push(`LOC-${i},${i % 999} Main St,Springfield,${10000 + (i % 89999)},${lat.toFixed(5)},${lon.toFixed(5)},${500000 + (i % 1000) * 1000},${100000 + (i % 500) * 100},${i % 50000},Residential,Wood frame,${1950 + (i % 70)}`);
  }
  return out.join('\n') + '\n';
}

export function form(file: string | Uint8Array, options: { name?: string; type?: string; currency?: string; filename?: string } = {}): FormData {
  const data = new FormData();
  const blob = new Blob([file], options.type === undefined ? {} : { type: options.type });
  data.append(options.name ?? 'file', blob, options.filename ?? 'schedule.csv');
  if (options.currency !== undefined) data.append('currency', options.currency);
  return data;
}

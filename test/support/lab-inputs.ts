// A lab input's form, as POST {lab_url}/inputs reads it: the kind part and the file part.

/** A form of kind and file parts (the file named as given), and any other parts given. */
export function inputForm(kind: string | undefined, file: Uint8Array | string | undefined, filename = 'input.bin', extra: Record<string, string> = {}): FormData {
  const data = new FormData();
  if (kind !== undefined) data.append('kind', kind);
  if (file !== undefined) data.append('file', new Blob([file]), filename);
  for (const [name, value] of Object.entries(extra)) data.append(name, value);
  return data;
}

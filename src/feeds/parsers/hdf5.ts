// HDF5 files (CLIMADA's hazards, MATLAB v7.3) opened from bytes already verified against their
// manifest. The package's ESM build is used for its in-memory file system: its node build writes
// the bytes through to the real disk.
// The package is loaded by the first file read, not by every process that serves the API.
type H5 = typeof import('h5wasm').default;
export type H5File = InstanceType<H5['File']>;
export type H5Dataset = InstanceType<H5['Dataset']>;
export type H5Group = InstanceType<H5['Group']>;

let loaded: Promise<{ h5wasm: H5; module: Awaited<H5['ready']> }> | undefined;
let sequence = 0;
/** The package's classes, once loaded (a file can only be open after that). */
let classes: H5 | undefined;

/** The dataset at path, or undefined when there is none (or a group is there). */
export function datasetAt(file: H5File, path: string): H5Dataset | undefined {
  const d = file.get(path);
  return d instanceof classes!.Dataset ? d : undefined;
}

/** The group at path, or undefined when there is none (or a dataset is there). */
export function groupAt(file: H5File, path: string): H5Group | undefined {
  const g = file.get(path);
  return g instanceof classes!.Group ? g : undefined;
}

/** Opens bytes as an HDF5 file in h5wasm's in-memory file system, hands it to read, and removes it. */
export async function withHdf5<T>(bytes: Uint8Array, read: (file: H5File) => T): Promise<T> {
  loaded ??= import('h5wasm').then(async ({ default: h5wasm }) => ({ h5wasm, module: await h5wasm.ready }));
  const { h5wasm, module } = await loaded;
  classes = h5wasm;
  const path = `/catrisk-${++sequence}.h5`;
  module.FS.writeFile(path, bytes);
  const file = new h5wasm.File(path, 'r');
  try {
    return read(file);
  } finally {
    file.close();
    module.FS.unlink(path);
  }
}

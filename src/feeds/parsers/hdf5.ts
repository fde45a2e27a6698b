// HDF5 files (CLIMADA's hazards, MATLAB v7.3) opened from bytes already verified against their
// manifest. The package's ESM build is used for its in-memory file system: its node build writes
// the bytes through to the real disk.
import h5wasm from 'h5wasm';

type H5 = typeof h5wasm;
export type H5File = InstanceType<H5['File']>;
export const { Dataset, Group } = h5wasm;

let ready: Promise<Awaited<H5['ready']>> | undefined;
let sequence = 0;

/** Opens bytes as an HDF5 file in h5wasm's in-memory file system, hands it to read, and removes it. */
export async function withHdf5<T>(bytes: Uint8Array, read: (file: H5File) => T): Promise<T> {
  ready ??= h5wasm.ready;
  const module = await ready;
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

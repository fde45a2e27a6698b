// A single-band georeferenced GeoTIFF (WGS 84 geographic, as the Aqueduct Floods maps are) read with
// geotiff from the verified bytes: the grid's corner, cell size, no-data value and the values row by row.

import type { Raster } from '../../domain/lab/lanes/flood/depth-map.js';

export interface RasterRecord extends Raster {
  readonly values: Float32Array;
}

const PIXEL_IS_POINT = 2;
const GEOGRAPHIC = 2;
const USER_DEFINED = 32767;
const DEGREE = 9102;

export async function parseGeoTiffRaster(bytes: Uint8Array): Promise<RasterRecord> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const tiff = await (await import('geotiff')).fromArrayBuffer(buffer);
  const image = await tiff.getImage();
  if (image.getSamplesPerPixel() !== 1) throw new Error(`not a single-band raster: ${image.getSamplesPerPixel()} samples per pixel`);
  const [originLon, originLat] = image.getOrigin();
  const [stepLon, stepLat] = image.getResolution();
  const keys = (image.getGeoKeys() ?? {}) as Record<string, unknown>;
  // Geographic (model type 2) in degrees on WGS 84: EPSG 4326, or a user-defined system citing WGS 84.
  const wgs84 = keys.GeographicTypeGeoKey === 4326
    || (keys.GeographicTypeGeoKey === USER_DEFINED && /WGS[ _]?84/i.test(String(keys.GeogCitationGeoKey ?? '')) && keys.GeogSemiMajorAxisGeoKey === 6378137);
  if (keys.GTModelTypeGeoKey !== GEOGRAPHIC || !wgs84 || (keys.GeogAngularUnitsGeoKey !== undefined && keys.GeogAngularUnitsGeoKey !== DEGREE)) {
    throw new Error(`raster is not WGS 84 geographic in degrees (model type ${String(keys.GTModelTypeGeoKey)}, geographic type ${String(keys.GeographicTypeGeoKey)})`);
  }
  // A point-registered grid names cell centres: move the corner half a cell out.
  const point = keys.GTRasterTypeGeoKey === PIXEL_IS_POINT;
  const rasters = await image.readRasters({ interleave: true });
  return {
    width: image.getWidth(),
    height: image.getHeight(),
    origin_lon: originLon! - (point ? stepLon! / 2 : 0),
    origin_lat: originLat! - (point ? stepLat! / 2 : 0),
    step_lon: stepLon!,
    step_lat: stepLat!,
    nodata: image.getGDALNoData(),
    values: Float32Array.from(rasters as unknown as ArrayLike<number>),
  };
}

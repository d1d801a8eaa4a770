// The geometry is shared with the transport service; it lives in the host package.
export {
  boundingBox,
  destinationPoint,
  EARTH_RADIUS_KM,
  GEO_BANDS_PER_DEGREE,
  type GeoBox,
  geoBand,
  haversineKm,
  KM_PER_DEGREE,
  normaliseLongitude,
  type Point,
  RAD,
  TINY_DEGREES,
  withoutTinyDegrees,
} from '@rootline/host';

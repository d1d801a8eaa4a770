// Location privacy levels are shared with the transport service; they live in the host package.
export {
  applyPrivacyLevel,
  CITY_CELL_KM,
  COUNTRY_CELL_KM,
  FUZZY_MAX_KM,
  FUZZY_MIN_KM,
  snapToGrid,
} from '@rootline/host';

// Column names → the location field they hold. OED location field names (checked against the pinned
// field list) and broker aliases, matched case- and punctuation-insensitively ("Loc #" = "LocNumber",
// "Latitude (deg)" = "Latitude"). A unit in the name of a money column ("TIV (USD)", "Building
// Value €", "TIV ('000)", "Contents (EUR m)") is read as that column's currency and scale.
import { currencyToken, type CurrencyToken } from './currency.js';
import { scaleWord, type Scale } from './money.js';
import type { OedReference } from './oed-reference.js';

export const LOCATION_FIELDS = [
  'ref',
  'latitude',
  'longitude',
  'coordinates',
  'street',
  'city',
  'area',
  'postcode',
  'country',
  'occupancy',
  'construction',
  'year_built',
  'storeys',
  'buildings',
  'contents',
  'business_interruption',
  'other',
  'tiv',
  'currency',
  'peril',
  'bi_period_days',
  'port_number',
  'acc_number',
  'loc_name',
] as const;
export type LocationField = (typeof LOCATION_FIELDS)[number];

export type MoneyField = 'buildings' | 'contents' | 'business_interruption' | 'other' | 'tiv';
const MONEY_FIELDS: ReadonlySet<LocationField> = new Set<LocationField>(['buildings', 'contents', 'business_interruption', 'other', 'tiv']);

export function isMoneyField(field: LocationField): field is MoneyField {
  return MONEY_FIELDS.has(field);
}

/** OED location field names ingest reads; used only when the pinned field list has them. */
export const OED_FIELD_NAMES: Readonly<Record<string, LocationField>> = {
  LocNumber: 'ref',
  Latitude: 'latitude',
  Longitude: 'longitude',
  StreetAddress: 'street',
  City: 'city',
  AreaName: 'area',
  AreaCode: 'area',
  PostalCode: 'postcode',
  CountryCode: 'country',
  OccupancyCode: 'occupancy',
  ConstructionCode: 'construction',
  YearBuilt: 'year_built',
  NumberOfStoreys: 'storeys',
  BuildingTIV: 'buildings',
  ContentsTIV: 'contents',
  BITIV: 'business_interruption',
  OtherTIV: 'other',
  LocCurrency: 'currency',
  LocPerilsCovered: 'peril',
  BIPOI: 'bi_period_days',
  PortNumber: 'port_number',
  AccNumber: 'acc_number',
  LocName: 'loc_name',
};

/** OED identifier fields kept on each location under their OED names, so an export loses nothing. */
export const OED_IDENTIFIER_FIELDS = { port_number: 'PortNumber', acc_number: 'AccNumber', loc_name: 'LocName' } as const;
export type OedIdentifierField = keyof typeof OED_IDENTIFIER_FIELDS;

// RMS (Moody's) EDM location exports carry values per peril and coverage number: EQCV1VAL is the
// earthquake building value, CV2 contents, CV3 business interruption (time element); the peril
// prefixes are EQ, WS (windstorm), TO (tornado/hail), FL (flood), FR (fire), TR (terrorism).
// Seen in public EDM import profiles and converters (e.g. OasisLMF's Flamingo PiWind load scripts).
// The first peril's column is read; a second peril's column for the same coverage is disclosed.
const EDM_PERILS = ['eq', 'ws', 'to', 'fl', 'fr', 'tr'] as const;
const edm = (coverage: number) => EDM_PERILS.map((peril) => `${peril}cv${coverage}val`);

/** Broker spellings, as normalizeColumnName leaves them. */
export const COLUMN_ALIASES: Readonly<Record<LocationField, readonly string[]>> = {
  ref: ['loc', 'locno', 'locnum', 'locationnumber', 'locationno', 'locationnum', 'locationid', 'locid', 'locationref', 'locref', 'ref', 'reference', 'refno', 'refnumber', 'siteid', 'sitenumber', 'siteno', 'siteref', 'id', 'propertyid', 'propertyno', 'propertynumber', 'propertyref', 'riskid', 'riskno', 'riskref', 'no', 'nr', 'number'],
  latitude: ['latitude', 'lat', 'latdeg', 'latitudedeg', 'latitudedegrees', 'latdd', 'latitudedd', 'latdecimal', 'latitudedecimal'],
  longitude: ['longitude', 'long', 'lng', 'lon', 'longdeg', 'longitudedeg', 'longitudedegrees', 'londeg', 'lngdeg', 'longdd', 'longitudedd', 'londecimal', 'longitudedecimal'],
  coordinates: ['coordinates', 'coords', 'latlong', 'latlon', 'latlng', 'gps', 'gpscoordinates', 'geolocation', 'locationcoordinates'],
  street: ['street', 'address', 'address1', 'addressline1', 'streetaddress1', 'street1', 'fulladdress', 'locationaddress', 'propertyaddress', 'siteaddress', 'streetname', 'addr'],
  city: ['city', 'town', 'citytown', 'towncity', 'municipality', 'locality', 'suburb'],
  area: ['state', 'province', 'county', 'region', 'statecode', 'stateprovince', 'provincestate', 'statename'],
  postcode: ['postcode', 'zip', 'zipcode', 'postal', 'plz', 'zippostalcode', 'postzip', 'postalzip'],
  country: ['country', 'countryiso', 'iso2', 'ctry', 'cntry', 'countryname', 'cntrycode'],
  occupancy: ['occupancy', 'occ', 'occcode', 'occupancytype', 'occupancydescription', 'occupancydesc', 'occupancyclass', 'occtype', 'use', 'buildinguse', 'primaryuse', 'propertyuse', 'usage'],
  construction: ['construction', 'constr', 'const', 'constructiontype', 'constructionclass', 'constrcode', 'consttype', 'constructiondescription', 'constructiondesc', 'constrtype', 'constclass', 'buildingconstruction', 'structuretype', 'bldgclass'],
  year_built: ['yob', 'yrbuilt', 'built', 'yearofconstruction', 'constructionyear', 'buildyear', 'yearbuild', 'yearofbuild', 'builtyear', 'yearconstructed'],
  storeys: ['storeys', 'stories', 'floors', 'nooffloors', 'noofstoreys', 'noofstories', 'numberofstories', 'numberoffloors', 'numstories', 'numfloors', 'floorcount', 'storeycount', 'storycount', 'levels'],
  buildings: ['buildingvalue', 'buildingsvalue', 'bldgvalue', 'bldg', 'building', 'buildings', 'buildingsi', 'buildingsuminsured', 'buildingssuminsured', 'bldgtiv', 'buildingcoverage', 'covabuilding', 'cova', 'buildingvalues', 'buildingstiv', 'replacementvaluea', 'coveragea', 'coverageavalue', 'covavalue', 'buildingreplacementvalue', 'buildingreplacementcost', 'buildingtsi', 'bldgsi', 'bldgval', ...edm(1)],
  contents: ['contents', 'contentsvalue', 'contentvalue', 'content', 'contentssuminsured', 'cont', 'contentssi', 'bpp', 'businesspersonalproperty', 'covccontents', 'covc', 'contentsvalues', 'replacementvaluec', 'coveragec', 'coveragecvalue', 'covcvalue', 'contentsreplacementvalue', 'contentstiv', 'contentstsi', 'contval', 'contentsandstock', 'stockandcontents', ...edm(2)],
  business_interruption: ['bi', 'businessinterruption', 'bivalue', 'businessinterruptionvalue', 'timeelement', 'te', 'bisuminsured', 'businessincome', 'lossofprofits', 'timeelementvalue', 'tevalue', 'replacementvalued', 'coveraged', 'coveragedvalue', 'covdvalue', 'covd', 'bitiv', 'bisi', 'businessinterruptionsuminsured', 'businessincomevalue', 'grossprofit', 'grossprofits', 'grossearnings', 'lossofrent', 'lossofrents', 'rentalincome', 'extraexpense', 'biandextraexpense', ...edm(3)],
  other: ['other', 'othervalue', 'otherstructures', 'othervalues', 'replacementvalueb', 'coverageb', 'coveragebvalue', 'covbvalue', 'covb', 'otherstructuresvalue', 'appurtenantstructures', 'othertiv', 'otherproperty'],
  tiv: ['tiv', 'totalinsuredvalue', 'totalinsuredvalues', 'totaltiv', 'tivtotal', 'totalvalue', 'totalvalues', 'suminsured', 'totalsuminsured', 'insuredvalue', 'tsi', 'value', 'values', 'totalsi'],
  currency: ['currency', 'ccy', 'curr', 'currencycode', 'cur', 'currencyiso'],
  peril: ['peril', 'perils', 'perilscovered', 'hazard', 'hazards', 'coveredperils', 'perilcovered'],
  // A period of indemnity in days (CEDE DaysCovered, OED BIPOI), not an amount.
  bi_period_days: ['dayscovered', 'bipoi', 'indemnityperiod', 'indemnityperioddays', 'biindemnityperiod', 'periodofindemnity', 'biperiod'],
  port_number: ['portnumber', 'portfolio', 'portfolionumber', 'portfoliono', 'portfolioid', 'portno', 'portid'],
  acc_number: ['accnumber', 'accountnumber', 'accountno', 'accno', 'accntnum', 'accountid', 'accid', 'contractid', 'account'],
  loc_name: ['locname', 'locationname', 'sitename', 'propertyname', 'buildingname'],
};

export interface ColumnReading {
  field: LocationField | null;
  /** Currency the column name states (money columns only). */
  currency: CurrencyToken | null;
  /** Scale the column name states (money columns only). */
  scale: Scale | null;
}

const NOT_NAME = /[^a-z0-9]/g;
const MARKS = /\p{M}+/gu;
const UNIT_IN_BRACKETS = /^(.*?)\s*[([]([^()[\]]*)[)\]]\s*$/;
const WORD_SEPARATORS = /[\s_\-/.]+/;
const UNIT_SEPARATORS = /[\s,;/]+/;
const FILLER_WORDS = new Set(['in', 'of', 'ccy', 'currency']);

/** "Loc #" → "locnumber"; "Latitude (deg)" → "latitudedeg"; "Année" → "annee". */
export function normalizeColumnName(name: string): string {
  return name.normalize('NFD').replace(MARKS, '').toLowerCase().replace(/#/g, 'number').replace(NOT_NAME, '');
}

type ColumnTable = ReadonlyMap<string, LocationField>;
const tables = new WeakMap<OedReference, ColumnTable>();

function tableFor(oed: OedReference): ColumnTable {
  let table = tables.get(oed);
  if (table === undefined) {
    const map = new Map<string, LocationField>();
    for (const [field, aliases] of Object.entries(COLUMN_ALIASES) as [LocationField, readonly string[]][]) {
      for (const alias of aliases) map.set(alias, field);
    }
    const listed = new Set(oed.locFields.map(normalizeColumnName));
    for (const [name, field] of Object.entries(OED_FIELD_NAMES)) {
      const key = normalizeColumnName(name);
      if (listed.has(key)) map.set(key, field);
    }
    table = map;
    tables.set(oed, table);
  }
  return table;
}

function unitTokens(text: string, oed: OedReference, upperCaseCodesOnly: boolean, reading: ColumnReading): boolean {
  let any = false;
  for (const token of text.split(UNIT_SEPARATORS)) {
    if (token === '' || FILLER_WORDS.has(token.toLowerCase())) continue;
    const scale = scaleWord(token);
    if (scale !== null && reading.scale === null) {
      reading.scale = scale;
      any = true;
      continue;
    }
    const currency = currencyToken(token, oed.currencies, upperCaseCodesOnly);
    if (currency !== null && reading.currency === null) {
      reading.currency = currency;
      any = true;
      continue;
    }
    return false;
  }
  return any;
}

/** The field a column name holds, with any currency and scale the name states. */
export function readColumnName(raw: string, oed: OedReference): ColumnReading {
  const table = tableFor(oed);
  const name = raw.trim();
  const reading: ColumnReading = { field: null, currency: null, scale: null };
  if (name === '') return reading;
  const direct = table.get(normalizeColumnName(name));
  const bracketed = UNIT_IN_BRACKETS.exec(name);
  if (bracketed !== null) {
    const field = table.get(normalizeColumnName(bracketed[1] ?? ''));
    if (field !== undefined) {
      reading.field = field;
      if (isMoneyField(field)) unitTokens(bracketed[2] ?? '', oed, false, reading);
      return reading;
    }
  }
  if (direct !== undefined && !isMoneyField(direct)) {
    reading.field = direct;
    return reading;
  }
  // "TIV USD", "USD TIV", "Building Value €", "TIV_000s", "TIV in EUR": unit words at either end
  // (a symbol such as € vanishes from the normalized name, so a money column is checked for one).
  const words = name.split(WORD_SEPARATORS).filter((w) => w !== '');
  for (let take = 1; take <= 2 && take < words.length; take++) {
    for (const atEnd of [true, false]) {
      const unit = atEnd ? words.slice(words.length - take) : words.slice(0, take);
      const rest = atEnd ? words.slice(0, words.length - take) : words.slice(take);
      while (rest.length > 0 && FILLER_WORDS.has((rest[rest.length - 1] ?? '').toLowerCase())) rest.pop();
      const field = table.get(normalizeColumnName(rest.join('')));
      if (field === undefined || !isMoneyField(field)) continue;
      const candidate: ColumnReading = { field, currency: null, scale: null };
      if (unitTokens(unit.join(' '), oed, true, candidate)) return candidate;
    }
  }
  if (direct !== undefined) reading.field = direct;
  return reading;
}

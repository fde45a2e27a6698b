// The words brokers write in schedules for occupancy and construction, each with its OED code.
// Ingest's exact-match tables (exposure/occupancy.ts) are the base; this table adds the phrases
// that appear inside longer free text ("3-storey tilt-up distribution warehouse", "RC frame office
// over retail", "unreinforced masonry church"), a few words in the languages of the schedules we
// read (French, German: "Bureau", "Béton armé", "Büro", "Stahlbeton"), and the trade's shorthands.
// Phrases are written normalized (normalizeWords: lower case, accents dropped, one space between
// words). A longer phrase found in a row outranks a shorter one inside it ("cold store" over "store").
import { CONSTRUCTION_ALIASES, OCCUPANCY_ALIASES } from '../exposure/occupancy.js';

export const OCCUPANCY_BROKER_WORDS: Readonly<Record<string, number>> = {
  ...OCCUPANCY_ALIASES,
  // Residential
  'single family residence': 1051, 'single family house': 1051, bungalow: 1073, 'detached house': 1070,
  'semi detached': 1071, 'semi detached house': 1071, 'end terrace': 1072, 'mid terrace': 1056,
  terrace: 1056, 'terraced house': 1056, townhouse: 1056, townhouses: 1056, 'row house': 1056,
  duplex: 1052, triplex: 1052, 'apartment block': 1055, 'apartment building': 1055, 'block of flats': 1055,
  condos: 1055, 'residential tower': 1055, dormitory: 1054, 'student housing': 1054, 'student accommodation': 1054,
  'retirement home': 1054, 'care home': 1107, 'staff housing': 1052, villa: 1070,
  hotel: 1115, motel: 1053, hotels: 1115, 'resort hotel': 1116, 'large hotel': 1116, inn: 1053, hostel: 1053,
  // Commercial
  'strip mall': 1101, 'shopping centre': 1101, 'shopping center': 1101, mall: 1101, supermarket: 1101,
  'grocery store': 1101, 'department store': 1101, 'retail park': 1101, boutique: 1101, showroom: 1101,
  magasin: 1101, geschaft: 1101, 'cash and carry': 1102, 'wholesale store': 1102,
  'office block': 1104, 'office tower': 1104, 'head office': 1104, headquarters: 1104, hq: 1104,
  bureau: 1104, bureaux: 1104, buro: 1104, ufficio: 1104, oficina: 1104, 'business park': 1104,
  'medical centre': 1105, 'medical center': 1105, 'doctors surgery': 1105, laboratory: 1105,
  hospitals: 1106, 'nursing home': 1107,
  cinema: 1110, theatre: 1110, theater: 1110, 'concert hall': 1110, stadium: 1111, arena: 1111,
  'amusement park': 1109, 'theme park': 1109, casino: 1117, 'golf course': 1114, 'golf club': 1114,
  'multi storey car park': 1113, 'parking garage': 1113, 'parking structure': 1113,
  cafe: 1119, bar: 1119, pub: 1119, tavern: 1119, nightclub: 1119, 'fast food': 1119, restaurants: 1119,
  'petrol station': 1120, 'gas station': 1120, 'filling station': 1120, 'service station': 1120,
  'car wash': 1121, garage: 1121, 'auto repair': 1121, 'body shop': 1121,
  'cold store': 1122, 'cold storage': 1122, 'logistics centre': 1122, 'logistics center': 1122,
  'fulfilment centre': 1122, 'fulfillment center': 1122, depot: 1122, 'storage facility': 1122,
  'self storage': 1122, lager: 1122, entrepot: 1122, 'distribution warehouse': 1122,
  'data centre': 2306, 'data center': 2306, 'telephone exchange': 1123,
  'railway station': 1124, 'train station': 1124, banks: 1125, 'bank branch': 1125,
  laundry: 1103, 'dry cleaner': 1103, salon: 1103, barber: 1103,
  // Industrial
  plant: 1150, mill: 1150, works: 1150, 'light industrial': 1152, 'light manufacturing': 1152,
  'heavy industrial': 1151, 'heavy manufacturing': 1151, 'assembly plant': 1151, foundry: 1155,
  'steel mill': 2252, smelter: 2253, refinery: 2450, 'oil refinery': 2450, 'chemical plant': 1154,
  'chemical works': 1154, brewery: 2151, bakery: 1153, 'food processing': 1153, 'food factory': 1153,
  'pharmaceutical plant': 2153, winery: 2155, 'print works': 2103, 'printing plant': 2103,
  'semiconductor fab': 2301, 'cement works': 2207, 'cement plant': 2207, quarry: 2404, mine: 1159,
  sawmill: 1151, 'textile mill': 1152, workshop: 1152, 'power station': 1300, 'power plant': 1300,
  substation: 2530, 'wind farm': 2542, 'solar farm': 2541, 'water treatment': 2550, 'sewage works': 2560,
  'waste water': 2560, 'gas works': 1303,
  // Religion, government, education
  chapel: 1201, cathedral: 1201, mosque: 1201, temple: 1201, synagogue: 1201, kirche: 1201, eglise: 1201,
  'town hall': 1210, 'city hall': 1210, courthouse: 1210, 'council offices': 1210,
  'fire station': 1220, 'police station': 1220, 'ambulance station': 1220,
  prison: 1215, jail: 1215, 'exhibition hall': 1213, 'convention centre': 1212, 'convention center': 1212,
  college: 1230, 'primary school': 1231, 'secondary school': 1231, 'high school': 1231,
  academy: 1231, kindergarten: 1231, schools: 1231,
  // Transport, agriculture
  airport: 1252, hangar: 1254, 'aircraft hangar': 1254, port: 1253, marina: 1253, 'bus depot': 2750,
  farm: 1351, barn: 1351, greenhouse: 1352, glasshouse: 1352, 'grain silo': 1402, silo: 1402,
};

export const CONSTRUCTION_BROKER_WORDS: Readonly<Record<string, number>> = {
  ...CONSTRUCTION_ALIASES,
  // Wood
  'timber framed': 5050, 'wood framed': 5050, 'frame construction': 5050, 'stud wall': 5050, 'stick built': 5050,
  'light frame': 5051, 'light timber': 5051, 'brick veneer': 5052, 'masonry veneer': 5052,
  'heavy timber': 5053, 'mill construction': 5053, 'glulam': 5053, holz: 5050, bois: 5050, weatherboard: 5050,
  // Masonry
  'joisted masonry': 5108, 'unreinforced masonry': 5103, urm: 5103, 'unreinforced brick': 5103,
  'reinforced masonry': 5105, 'reinforced brick': 5105, 'concrete block': 5105, cmu: 5105, blockwork: 5105,
  'double brick': 5110, 'cavity brick': 5110, 'cavity wall': 5110, stone: 5102, 'rubble stone': 5102,
  adobe: 5101, 'confined masonry': 5109, brickwork: 5100, mauerwerk: 5100, maconnerie: 5100, bricks: 5100,
  'load bearing brick': 5103, 'load bearing masonry': 5103,
  // Concrete
  'reinforced concrete frame': 5150, 'rc frame': 5150, 'rcc frame': 5150, 'r c': 5150,
  'beton arme': 5150, stahlbeton: 5150, 'cast in place concrete': 5150, 'poured concrete': 5150,
  'concrete shear wall': 5151, 'rc shear wall': 5151, 'tilt up concrete': 5155, tiltup: 5155, 'tilt slab': 5155,
  'precast concrete': 5156, 'pre cast concrete': 5156, 'precast panels': 5156, 'concrete moment frame': 5158,
  'ductile concrete': 5153, 'non ductile concrete': 5154,
  // Steel
  'steel framed': 5200, 'steel portal frame': 5200, 'portal frame': 5200, 'steel structure': 5200, stahl: 5200,
  'metal building': 5201, 'light metal': 5201, 'metal clad': 5201, 'pre engineered metal': 5201,
  'pre engineered steel': 5201, 'metal sheet': 5201, 'sheet metal': 5201, 'braced frame': 5202,
  'steel moment frame': 5205, 'moment resisting frame': 5205, 'long span steel': 5209,
  // Other
  'manufactured housing': 5350, 'trailer home': 5350, 'double wide': 5354, 'glass curtain wall': 5304,
};

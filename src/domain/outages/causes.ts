// The cause of an OE-417 row, read from its free-text event type by a fixed keyword rule. The
// categories are the Purdue table's own (CAUSE.CATEGORY, Mukherjee et al. 2018), so a structure's
// cause means the same thing on both readings of the record. The rule is the first match in the
// order below on the lower-cased event type; a type matching none is `other`, and an empty or
// "Unknown" type is `unknown`. A structure naming a cause reads only rows of that category.

export const CAUSE_CATEGORIES = [
  'severe_weather', 'intentional_attack', 'fuel_supply_emergency', 'public_appeal', 'islanding',
  'equipment_failure', 'system_operability_disruption', 'other', 'unknown',
] as const;
export type CauseCategory = (typeof CAUSE_CATEGORIES)[number];

/** The categories a structure may name (other and unknown are what the rule could not place). */
export const NAMED_CAUSES: readonly CauseCategory[] = CAUSE_CATEGORIES.filter((c) => c !== 'other' && c !== 'unknown');

const RULES: readonly (readonly [CauseCategory, RegExp])[] = [
  ['severe_weather', /weather|storm|hurricane|tropical|tornado|\bice\b|icing|snow|blizzard|wind|lightning|flood|wild\s*(?:land\s*)?fire|fire danger|heat|derecho|natural disaster|rain|earthquake|cold|freez/],
  ['intentional_attack', /vandal|sabotage|attack|cyber|theft|suspicious|intrusion|shooting|gunshot|terror|bomb/],
  ['fuel_supply_emergency', /fuel|gas supply|coal\b|hydro/],
  ['public_appeal', /public appeal|appeal/],
  ['islanding', /island/],
  ['equipment_failure', /equipment|failure|fault|malfunction|tripped|trip\b|transformer|breaker|cable|insulator|relay|generator|transmission/],
  ['system_operability_disruption', /load shed|shed load|shedding|inadequa|indequa|deficien|uncontrolled loss|interruption|system operation|operation|voltage|frequency|emergency|separation|loss of|curtail|instability|firm/],
];

/** The cause category of a free-text event type. */
export function causeOf(eventType: string): CauseCategory {
  const t = eventType.trim().toLowerCase();
  if (t === '' || /^[-\s]*unknown[\s*]*$/.test(t)) return 'unknown';
  for (const [category, re] of RULES) if (re.test(t)) return category;
  return 'other';
}

/** The Purdue table's CAUSE.CATEGORY words as this vocabulary names them ("severe weather" → severe_weather). */
export function purdueCause(category: string): CauseCategory {
  const c = category.trim().toLowerCase().replace(/\s+/g, '_');
  return (CAUSE_CATEGORIES as readonly string[]).includes(c) ? (c as CauseCategory) : 'other';
}

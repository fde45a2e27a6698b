// Damage correlation groups of the windstorm lane: which items of a location share one set of
// random numbers when damage is sampled.
//
// The framework (OasisLMF, "Correlation methodology": damage group ids and peril correlation
// groups) gives every item a damage group id hashed from the location's damage_group_fields
// (PiWind: PortNumber, AccNumber, LocNumber) together with the peril correlation group of the
// item's peril (model_settings lookup_settings.supported_perils[].peril_correlation_group). Items of
// one group share their random numbers (fully correlated); different groups draw independently.
// PiWind puts storm surge (WSS) in group 1 and wind (WTC) in group 2, so a location's wind and
// surge damage are sampled independently. A peril the settings give no group falls in group 0, as
// the framework's default column value does, so such perils share one set.
//
// Rules offered (spec member correlation.damage_group):
//   location_peril_group  one set per location and peril correlation group (the framework's default)
//   location              one set per location, shared by all its items (perils fully correlated)
//   item                  one set per item (every peril and coverage independent)
// Correlation across locations (the damage_correlation_value of correlation_settings) is not
// applied under any rule: different locations draw independently.

import type { KeyedPortfolio, ModelData } from './model-data.js';

export const DAMAGE_GROUP_RULES = ['location_peril_group', 'location', 'item'] as const;
export type DamageGroupRule = (typeof DAMAGE_GROUP_RULES)[number];
export const DEFAULT_DAMAGE_GROUP: DamageGroupRule = 'location_peril_group';

export interface CorrelationSpec {
  damage_group: DamageGroupRule;
}

export const DEFAULT_CORRELATION: CorrelationSpec = { damage_group: DEFAULT_DAMAGE_GROUP };

/** Reads spec member correlation (absent or null: the default); faults go to details. */
export function readCorrelation(value: unknown, details: string[]): CorrelationSpec {
  if (value === undefined || value === null) return { ...DEFAULT_CORRELATION };
  if (typeof value !== 'object' || Array.isArray(value)) {
    details.push('correlation must be an object: {damage_group}');
    return { ...DEFAULT_CORRELATION };
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'damage_group') details.push(`correlation has an unknown member "${k}" (it has damage_group)`);
  const rule = o.damage_group ?? DEFAULT_DAMAGE_GROUP;
  if (!DAMAGE_GROUP_RULES.includes(rule as DamageGroupRule)) {
    details.push(`correlation.damage_group must be one of ${DAMAGE_GROUP_RULES.join(', ')}`);
    return { ...DEFAULT_CORRELATION };
  }
  return { damage_group: rule as DamageGroupRule };
}

/** The peril correlation group of each peril, from the model settings (0 when none is given). */
export function perilCorrelationGroups(model: Pick<ModelData, 'settings'>): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of model.settings?.supportedPerils ?? []) out.set(p.id, p.peril_correlation_group ?? 0);
  return out;
}

/**
 * Each item's damage group, numbered within its location from 0 in the order the location's items
 * first name it.
 */
export function itemDamageGroups(model: ModelData, portfolio: KeyedPortfolio, rule: DamageGroupRule): Int32Array {
  const groups = perilCorrelationGroups(model);
  const out = new Int32Array(portfolio.itemPeril.length);
  for (let l = 0; l < portfolio.locPlace.length; l++) {
    const seen = new Map<number, number>();
    for (let i = portfolio.locItemStart[l]!; i < portfolio.locItemStart[l + 1]!; i++) {
      if (rule === 'location') continue;
      const key = rule === 'item' ? i : groups.get(portfolio.perils[portfolio.itemPeril[i]!]!) ?? 0;
      let g = seen.get(key);
      if (g === undefined) {
        g = seen.size;
        seen.set(key, g);
      }
      out[i] = g;
    }
  }
  return out;
}

/** The rule as stated in a result's assumptions, with the model's peril groups. */
export function describeDamageGroups(model: Pick<ModelData, 'settings'>, modelPerils: readonly string[], rule: DamageGroupRule): string {
  const groups = [...perilCorrelationGroups(model)]
    .filter(([peril]) => modelPerils.includes(peril))
    .map(([peril, g]) => `${peril} ${g}`).join(', ');
  const perilText = groups === '' ? 'the model settings give no peril correlation group (all perils in group 0)' : `peril correlation groups from model_settings: ${groups}`;
  const head = 'Sampling as gulpy: Latin-hypercube sets of uniforms, inverted through the effective CDF, linear inside a bin whose interpolation value is its midpoint (quadratic otherwise, point bins at bin_to); uniforms from xoshiro128** seeded per event from the run seed.';
  const byRule: Record<DamageGroupRule, string> = {
    location_peril_group: `Damage correlation groups (correlation.damage_group location_peril_group, the framework's default): one set of uniforms per event, location and peril correlation group, shared by that group's items; groups draw independently (${perilText}).`,
    location: 'Damage correlation groups (correlation.damage_group location): one set of uniforms per event and location, shared by all its items, so its perils are fully correlated (the framework\'s grouping before peril correlation groups).',
    item: 'Damage correlation groups (correlation.damage_group item): one set of uniforms per event and item; every peril and coverage draws independently.',
  };
  return `${head} ${byRule[rule]} Locations draw independently of each other (the damage_correlation_value of correlation_settings is not applied).`;
}

// An OpenQuake exposure model in NRML 0.4 or 0.5, as a user uploads it: <exposureModel id category>
// with its <conversions> (<costTypes> of <costType name type unit>, with type aggregated, per_asset
// or per_area; <area type unit>; <deductible isAbsolute> and <insuranceLimit isAbsolute>, absolute
// when absent), <occupancyPeriods>, <tagNames>, and <assets> of <asset id taxonomy number? area?>
// each with <location lon lat>, <costs> of <cost type value deductible? insuranceLimit?>,
// <occupancies> of <occupancy occupants period>, and <tags>. The elements and rules are those of
// openquake/commonlib/readinput.py (_get_exposure) and openquake/risklib/asset.py (assets2df,
// CostCalculator): number and area are 1 when absent, an asset id appears once, a per_area cost
// needs the <area> conversion, a cost names a declared cost type. An exposure whose <assets> names
// CSV files instead of holding <asset> elements is refused: an upload is one file.
import type { OqAsset, OqAssetCost, OqCostType, OqExposureModel } from '../../domain/lab/lanes/openquake-scenario-risk/oq-inputs.js';
import { elements, firstElement, numberOf, nrmlVersion, textOf, withoutComments } from './nrml-elements.js';

const COST_TYPE_KINDS = new Set(['aggregated', 'per_asset', 'per_area']);

function isAbsolute(conversions: string, tag: string): boolean {
  const v = firstElement(conversions, tag)?.attrs.isAbsolute;
  if (v === undefined) return true;
  if (/^(true|1)$/i.test(v.trim())) return true;
  if (/^(false|0)$/i.test(v.trim())) return false;
  throw new Error(`<${tag} isAbsolute="${v}">: not true or false`);
}

function costTypes(conversions: string): OqCostType[] {
  const out: OqCostType[] = [];
  for (const { attrs } of elements(firstElement(conversions, 'costTypes')?.body ?? '', 'costType')) {
    const { name, type, unit } = attrs;
    if (!name) throw new Error('a <costType> has no name');
    if (!type || !COST_TYPE_KINDS.has(type)) throw new Error(`<costType name="${name}">: type ${JSON.stringify(type ?? null)} is not aggregated, per_asset or per_area`);
    if (out.some((c) => c.name === name)) throw new Error(`<costType name="${name}"> is declared twice`);
    out.push({ name, type: type as OqCostType['type'], unit: unit ?? '' });
  }
  return out;
}

function assetCosts(body: string, id: string, declared: readonly OqCostType[]): Record<string, OqAssetCost> {
  const costs: Record<string, OqAssetCost> = {};
  for (const { attrs } of elements(firstElement(body, 'costs')?.body ?? '', 'cost')) {
    const type = attrs.type ?? '';
    if (!declared.some((c) => c.name === type)) throw new Error(`asset ${id}: cost type ${JSON.stringify(type)} is not among the <costTypes> (${declared.map((c) => c.name).join(', ') || 'none'})`);
    const value = numberOf(attrs.value, `asset ${id}: ${type} value`);
    if (value < 0) throw new Error(`asset ${id}: ${type} value ${value} is negative`);
    const cost: { value: number; deductible?: number; insurance_limit?: number } = { value };
    if (attrs.deductible !== undefined) cost.deductible = numberOf(attrs.deductible, `asset ${id}: ${type} deductible`);
    if (attrs.insuranceLimit !== undefined) cost.insurance_limit = numberOf(attrs.insuranceLimit, `asset ${id}: ${type} insuranceLimit`);
    if ((cost.deductible === undefined) !== (cost.insurance_limit === undefined)) throw new Error(`asset ${id}: the ${type} cost has a deductible or an insuranceLimit without the other; insured losses need both`);
    costs[type] = cost;
  }
  return costs;
}

function readAsset(attrs: Record<string, string>, body: string, declared: readonly OqCostType[], tagNames: readonly string[]): OqAsset {
  const id = attrs.id;
  if (!id) throw new Error('an <asset> has no id');
  if (!attrs.taxonomy) throw new Error(`asset ${id} has no taxonomy`);
  const location = firstElement(body, 'location');
  if (!location) throw new Error(`asset ${id} has no <location>`);
  const lon = numberOf(location.attrs.lon, `asset ${id}: lon`);
  const lat = numberOf(location.attrs.lat, `asset ${id}: lat`);
  if (lon < -180 || lon > 180 || lat < -90 || lat > 90) throw new Error(`asset ${id}: location ${lon} ${lat} is not a longitude and latitude`);
  const occupants: Record<string, number> = {};
  for (const o of elements(firstElement(body, 'occupancies')?.body ?? '', 'occupancy')) {
    occupants[o.attrs.period ?? ''] = numberOf(o.attrs.occupants, `asset ${id}: occupants`);
  }
  const tagAttrs = firstElement(body, 'tags')?.attrs ?? {};
  const tags: Record<string, string> = {};
  for (const t of tagNames) if (tagAttrs[t] !== undefined) tags[t] = tagAttrs[t]!;
  return {
    id, taxonomy: attrs.taxonomy, lon, lat, occupants, tags,
    number: attrs.number === undefined ? 1 : numberOf(attrs.number, `asset ${id}: number`),
    area: attrs.area === undefined ? 1 : numberOf(attrs.area, `asset ${id}: area`),
    costs: assetCosts(body, id, declared),
  };
}

export function parseOqExposure(text: string): OqExposureModel {
  const xml = withoutComments(text);
  const nrml = nrmlVersion(xml, 'exposureModel');
  const model = firstElement(xml, 'exposureModel');
  if (!model) throw new Error('no <exposureModel> element');
  const conversions = firstElement(model.body, 'conversions')?.body ?? '';
  const declared = costTypes(conversions);
  const areaAttrs = firstElement(conversions, 'area')?.attrs;
  const area = areaAttrs ? { type: areaAttrs.type === 'per_asset' ? 'per_asset' as const : 'aggregated' as const, unit: areaAttrs.unit ?? '' } : null;
  if (declared.some((c) => c.type === 'per_area') && !area) throw new Error('a per_area cost type needs the <area type unit> conversion');
  const tagNames = textOf(firstElement(model.body, 'tagNames')?.body ?? '').split(/\s+/).filter(Boolean);
  const assetsEl = firstElement(model.body, 'assets');
  if (!assetsEl) throw new Error('no <assets> element');
  const assetsBody = assetsEl.body;
  if (!/<asset[\s>/]/.test(assetsBody) && textOf(assetsBody) !== '') {
    throw new Error(`<assets> names CSV files (${textOf(assetsBody)}) instead of holding <asset> elements; an upload is one file: write the assets into the XML`);
  }
  const assets: OqAsset[] = [];
  const seen = new Set<string>();
  for (const { attrs, body } of elements(assetsBody, 'asset')) {
    const asset = readAsset(attrs, body, declared, tagNames);
    if (seen.has(asset.id)) throw new Error(`asset id ${asset.id} appears twice`);
    seen.add(asset.id);
    assets.push(asset);
  }
  if (assets.length === 0) throw new Error('<assets> holds no <asset>');
  return {
    nrml, id: model.attrs.id ?? '', category: model.attrs.category ?? '',
    description: textOf(firstElement(model.body, 'description')?.body ?? ''),
    cost_types: declared, area,
    deductible_is_absolute: isAbsolute(conversions, 'deductible'),
    insurance_limit_is_absolute: isAbsolute(conversions, 'insuranceLimit'),
    occupancy_periods: textOf(firstElement(model.body, 'occupancyPeriods')?.body ?? '').split(/\s+/).filter(Boolean),
    tag_names: tagNames,
    assets,
  };
}

/** What an upload's summary says of an exposure model: its shape, counts and units. */
export function oqExposureSummary(m: OqExposureModel): Record<string, unknown> {
  const taxonomies = new Set(m.assets.map((a) => a.taxonomy));
  const totals: Record<string, number> = {};
  for (const a of m.assets) for (const [k, c] of Object.entries(a.costs)) totals[k] = (totals[k] ?? 0) + c.value;
  return {
    nrml: m.nrml, id: m.id, category: m.category, assets: m.assets.length, taxonomies: taxonomies.size,
    cost_types: m.cost_types, stated_values: totals,
    insured: m.assets.some((a) => Object.values(a.costs).some((c) => c.deductible !== undefined)),
    deductible_is_absolute: m.deductible_is_absolute, insurance_limit_is_absolute: m.insurance_limit_is_absolute,
    occupancy_periods: m.occupancy_periods, tag_names: m.tag_names,
  };
}

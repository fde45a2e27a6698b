// A GMPE logic tree in NRML 0.5 (OpenQuake's XML), as ESRM20/ESHM20 publish theirs: one
// logicTreeBranchSet of uncertaintyType gmpeModel, each branch an uncertaintyModel naming the GMPE
// class, optionally in brackets followed by `name = value` arguments (ESHM20: sigma_mu_epsilon,
// c3_epsilon), and an uncertaintyWeight. Read strictly: a branch without a model or weight, an
// argument that is not a number, or weights not summing to 1 (to 1e-6) is an error naming it.

import type { GmpeLogicTree, GmpeLogicTreeBranch } from '../../domain/lab/lanes/earthquake/eshm20-backbone.js';

const BRANCH = /<logicTreeBranch\s+branchID="([^"]+)"\s*>([\s\S]*?)<\/logicTreeBranch>/g;

function modelOf(text: string, id: string): { gsim: string; args: Record<string, number> } {
  const lines = text.trim().split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  const head = lines.shift();
  if (!head) throw new Error(`GMPE branch ${id}: empty uncertaintyModel`);
  const gsim = /^\[(\w+)\]$/.exec(head)?.[1] ?? (/^\w+$/.test(head) ? head : undefined);
  if (!gsim) throw new Error(`GMPE branch ${id}: model ${JSON.stringify(head)} is not a GMPE class name`);
  const args: Record<string, number> = {};
  for (const line of lines) {
    const m = /^(\w+)\s*=\s*(\S+)$/.exec(line);
    const value = m ? Number(m[2]) : Number.NaN;
    if (!m || !Number.isFinite(value)) throw new Error(`GMPE branch ${id}: argument line ${JSON.stringify(line)} is not name = number`);
    args[m[1]!] = value;
  }
  return { gsim, args };
}

export function parseGmpeLogicTree(xml: string): GmpeLogicTree {
  const tree_id = /<logicTree\s+logicTreeID="([^"]+)"/.exec(xml)?.[1];
  const sets = [...xml.matchAll(/<logicTreeBranchSet\s([^>]*)>/g)];
  if (!tree_id || sets.length !== 1) throw new Error(`a GMPE logic tree with one branch set is expected, found ${sets.length}`);
  const attrs = sets[0]![1]!;
  if (!/uncertaintyType="gmpeModel"/.test(attrs)) throw new Error('the branch set is not of uncertaintyType gmpeModel');
  const tectonic_region = /applyToTectonicRegionType="([^"]+)"/.exec(attrs)?.[1] ?? '';
  const branches: GmpeLogicTreeBranch[] = [];
  for (const m of xml.matchAll(BRANCH)) {
    const id = m[1]!;
    const model = /<uncertaintyModel>([\s\S]*?)<\/uncertaintyModel>/.exec(m[2]!)?.[1];
    const weight = Number(/<uncertaintyWeight>([\s\S]*?)<\/uncertaintyWeight>/.exec(m[2]!)?.[1]);
    if (model === undefined || !(weight > 0)) throw new Error(`GMPE branch ${id}: no model or no positive weight`);
    branches.push({ branch_id: id, ...modelOf(model, id), weight });
  }
  const total = branches.reduce((s, b) => s + b.weight, 0);
  if (branches.length === 0 || Math.abs(total - 1) > 1e-6) throw new Error(`GMPE logic tree ${tree_id}: ${branches.length} branches weighing ${total}, not 1`);
  return { tree_id, tectonic_region, branches };
}

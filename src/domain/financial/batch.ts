// The financial module applied to one event's losses in many columns at once (the samples of an
// event, times the damage-ratio factors a lane runs), over the items the event touches: as ktools'
// fmcalc streams every sample of an event through each level, a level here is one pass over its
// touched nodes with every column of a node side by side ([slot × columns] typed arrays), so the
// cost follows the items an event reaches, not the programme's size. Only touched items, the nodes,
// policies, accounts and reinsurance risks above them, and their output rows are visited; an item
// no loss reaches has loss and running amounts 0 and changes no sum.
//
// The rules are those of levels.ts, insurance.ts and reinsurance.ts (one level's node after
// another, back-allocation rule 2, each policy on the site output, the account on its policies'
// layers, reinsurance passes on the net of the pass before). One case reaches untouched items: a
// node with no loss whose terms still move the running amounts (a minimum deductible taken from the
// loss above sub-limits) shares the change evenly over all its items; those items are then taken in
// (with zero loss) so later levels see what the full programme would.
import { applyProfile, passesThrough, type Extras, type Profile } from './profile.js';
import type { Level } from './levels.js';
import type { InsuranceProgramme } from './insurance.js';
import { cede, type ReinsuranceContract, type ReinsuranceProgramme } from './reinsurance.js';

/** Loss and running amounts per slot and column: slot s, column c at s × columns + c. */
class Block {
  loss: Float64Array;
  deductible: Float64Array;
  overLimit: Float64Array;
  underLimit: Float64Array;
  /** The id (item, chain-local item or row) of each slot. */
  ids: Int32Array;
  n = 0;
  /** Id → slot, −1 when absent. */
  readonly slot: Int32Array;

  constructor(universe: number, private readonly C: number, initial = 64) {
    this.slot = new Int32Array(universe).fill(-1);
    const cap = Math.max(1, Math.min(universe, initial));
    this.ids = new Int32Array(cap);
    this.loss = new Float64Array(cap * C);
    this.deductible = new Float64Array(cap * C);
    this.overLimit = new Float64Array(cap * C);
    this.underLimit = new Float64Array(cap * C);
  }

  /** The id's slot, made (all zero) when absent. */
  take(id: number): number {
    const have = this.slot[id]!;
    if (have >= 0) return have;
    if (this.n === this.ids.length) this.grow();
    const s = this.n++;
    this.slot[id] = s;
    this.ids[s] = id;
    return s;
  }

  private grow(): void {
    const cap = Math.min(this.slot.length, this.ids.length * 2);
    const more = (a: Float64Array) => {
      const b = new Float64Array(cap * this.C);
      b.set(a);
      return b;
    };
    const ids = new Int32Array(cap);
    ids.set(this.ids);
    this.ids = ids;
    this.loss = more(this.loss);
    this.deductible = more(this.deductible);
    this.overLimit = more(this.overLimit);
    this.underLimit = more(this.underLimit);
  }

  /** Back to empty: used slots zeroed, ids forgotten. */
  clear(): void {
    const used = this.n * this.C;
    this.loss.fill(0, 0, used);
    this.deductible.fill(0, 0, used);
    this.overLimit.fill(0, 0, used);
    this.underLimit.fill(0, 0, used);
    for (let s = 0; s < this.n; s++) this.slot[this.ids[s]!] = -1;
    this.n = 0;
  }
}

/** A level with each id's node (−1: in none). */
interface IndexedLevel {
  readonly level: Level;
  readonly node: Int32Array;
}

function indexLevel(level: Level, universe: number): IndexedLevel {
  const node = new Int32Array(universe).fill(-1);
  for (let n = 0; n < level.profiles.length; n++) {
    for (let s = level.start[n]!; s < level.start[n + 1]!; s++) {
      const i = level.order[s]!;
      if (node[i] !== -1) throw new Error(`level ${level.name}: item ${i} is in two nodes`);
      node[i] = n;
    }
  }
  return { level, node };
}

/** A contract with each row's risk (−1: out of its scope). */
interface IndexedContract {
  readonly contract: ReinsuranceContract;
  readonly risk: Int32Array;
}

/** The structures, indexed once per programme for the batch's lookups. */
interface Index {
  readonly site: readonly IndexedLevel[];
  readonly chainLevels: readonly (readonly IndexedLevel[])[];
  /** Chains of item i: chainOf[chainStart[i] .. chainStart[i + 1]), at local index localOf[..]. */
  readonly chainStart: Int32Array;
  readonly chainOf: Int32Array;
  readonly localOf: Int32Array;
  readonly passes: readonly (readonly IndexedContract[])[];
  readonly maxNodes: number;
  readonly maxRisks: number;
}

function indexProgramme(p: InsuranceProgramme, ri: ReinsuranceProgramme | null): Index {
  const nItems = p.itemTiv.length;
  const site = p.site.map((lv) => indexLevel(lv, nItems));
  const chainLevels = p.chains.map((c) => c.levels.map((lv) => indexLevel(lv, c.items.length)));
  const count = new Int32Array(nItems + 1);
  for (const c of p.chains) for (const i of c.items) count[i + 1]!++;
  for (let i = 0; i < nItems; i++) count[i + 1]! += count[i]!;
  const chainOf = new Int32Array(count[nItems]!);
  const localOf = new Int32Array(count[nItems]!);
  const fill = count.slice(0, nItems);
  p.chains.forEach((c, ci) => c.items.forEach((i, j) => {
    const at = fill[i]!++;
    chainOf[at] = ci;
    localOf[at] = j;
  }));
  const nRows = p.rowItem.length;
  const passes = (ri?.passes ?? []).map((pass) => pass.contracts.map((contract) => {
    const risk = new Int32Array(nRows).fill(-1);
    for (let k = 0; k < contract.risk.length; k++) for (let q = contract.start[k]!; q < contract.start[k + 1]!; q++) risk[contract.order[q]!] = k;
    return { contract, risk };
  }));
  let maxNodes = 1;
  for (const l of [...site, ...chainLevels.flat()]) maxNodes = Math.max(maxNodes, l.level.profiles.length);
  let maxRisks = 1;
  for (const pass of passes) for (const c of pass) maxRisks = Math.max(maxRisks, c.contract.risk.length);
  return { site, chainLevels, chainStart: count, chainOf, localOf, passes, maxNodes, maxRisks };
}

const x: Extras = { deductible: 0, overLimit: 0, underLimit: 0 };

/** The first n values set to 0 (a loop the compiler inlines: per node, cheaper than fill's call). */
function zero(a: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) a[i] = 0;
}

/**
 * One event's ground-up losses per item in `columns` columns, and the insured and net loss of each
 * output row (policy layer × item) they give. add() the losses, run(), read rows (touched row ids),
 * il and ri ([slot × columns]) or the column totals, then clear() for the next event. Columns are
 * independent: a column is what the whole programme gives for that column's losses alone.
 */
export class TermsBatch {
  private readonly ix: Index;
  private readonly site: Block;
  private readonly chain: Block;
  /** Output rows: loss holds the insured loss, deductible the net, overLimit what a pass of several contracts cedes. */
  private readonly out: Block;
  // Per touched node of a level: its node, member slots in bucket[start[t] .. start[t + 1]).
  private readonly mark: Int32Array;
  private readonly tNode: Int32Array;
  private readonly tStart: Int32Array;
  private readonly pos: Int32Array;
  private bucket: Int32Array;
  private readonly chainMark: Int32Array;
  private readonly chainList: Int32Array;
  private readonly chainCount: Int32Array;
  private readonly pairFrom: Int32Array;
  private readonly pairPos: Int32Array;
  private pairSlot = new Int32Array(64);
  private pairLocal = new Int32Array(64);
  /** Per chain: its rows' slots out.ids[rowsFrom[c] .. rowsTo[c]) and the running amounts its layers hand up, per column. */
  private readonly rowsFrom: Int32Array;
  private readonly rowsTo: Int32Array;
  private readonly chainExtras: Float64Array;
  private readonly reached: Uint8Array;
  private readonly accountMark: Uint8Array;
  private riskShare = new Float64Array(64);
  // Per column: a node's sums, factor and changes of its running amounts.
  private readonly sum: Float64Array;
  private readonly sd: Float64Array;
  private readonly so: Float64Array;
  private readonly su: Float64Array;
  private readonly f: Float64Array;
  private readonly dd: Float64Array;
  private readonly dO: Float64Array;
  private readonly dU: Float64Array;
  /** Insured and net loss per column, summed over the rows (after run()). */
  readonly ilTotal: Float64Array;
  readonly riTotal: Float64Array;

  constructor(readonly insurance: InsuranceProgramme, readonly reinsurance: ReinsuranceProgramme | null, readonly columns: number) {
    const C = columns;
    if (!Number.isInteger(C) || C < 1) throw new RangeError(`columns must be a positive integer, got ${C}`);
    this.ix = indexProgramme(insurance, reinsurance);
    const nItems = insurance.itemTiv.length;
    const nChains = insurance.chains.length;
    this.site = new Block(nItems, C);
    this.chain = new Block(Math.max(1, insurance.maxChainItems), C);
    this.out = new Block(Math.max(1, insurance.rowItem.length), C);
    const maxNodes = Math.max(this.ix.maxNodes, this.ix.maxRisks, insurance.accounts.length);
    this.mark = new Int32Array(maxNodes).fill(-1);
    this.tNode = new Int32Array(maxNodes);
    this.tStart = new Int32Array(maxNodes + 1);
    this.pos = new Int32Array(maxNodes);
    this.bucket = new Int32Array(64);
    this.chainMark = new Int32Array(nChains).fill(-1);
    this.chainList = new Int32Array(nChains);
    this.chainCount = new Int32Array(nChains);
    this.pairFrom = new Int32Array(nChains + 1);
    this.pairPos = new Int32Array(nChains);
    this.rowsFrom = new Int32Array(nChains);
    this.rowsTo = new Int32Array(nChains);
    this.chainExtras = new Float64Array(nChains * 3 * C);
    this.reached = new Uint8Array(C);
    this.accountMark = new Uint8Array(insurance.accounts.length);
    this.sum = new Float64Array(C);
    this.sd = new Float64Array(C);
    this.so = new Float64Array(C);
    this.su = new Float64Array(C);
    this.f = new Float64Array(C);
    this.dd = new Float64Array(C);
    this.dO = new Float64Array(C);
    this.dU = new Float64Array(C);
    this.ilTotal = new Float64Array(C);
    this.riTotal = new Float64Array(C);
  }

  /** Adds a ground-up loss to an item in one column. */
  add(item: number, column: number, loss: number): void {
    const s = this.site.take(item);
    this.site.loss[s * this.columns + column]! += loss;
  }

  /** Touched output rows: row ids out of rowItem's indexing, rowCount of them. */
  get rows(): Int32Array { return this.out.ids; }
  get rowCount(): number { return this.out.n; }
  /** Insured loss per touched row and column: [slot × columns]. */
  get il(): Float64Array { return this.out.loss; }
  /** Net loss per touched row and column: [slot × columns]. */
  get ri(): Float64Array { return this.out.deductible; }

  /** The terms on the losses added since the last clear(); once per clear(), since the levels change the items' losses in place. */
  run(): void {
    const C = this.columns;
    this.out.clear();
    const site = this.site;
    for (const lv of this.ix.site) this.applyLevel(lv, site);
    const nTouched = this.touchChains();
    for (let t = 0; t < nTouched; t++) this.runChain(t);
    this.accounts(nTouched);
    const out = this.out;
    const used = out.n * C;
    out.deductible.set(out.loss.subarray(0, used));
    for (const pass of this.ix.passes) this.reinsurancePass(pass);
    zero(this.ilTotal, C);
    zero(this.riTotal, C);
    for (let s = 0; s < out.n; s++) {
      const b = s * C;
      for (let c = 0; c < C; c++) {
        this.ilTotal[c]! += out.loss[b + c]!;
        this.riTotal[c]! += out.deductible[b + c]!;
      }
    }
    for (let t = 0; t < nTouched; t++) this.chainMark[this.chainList[t]!] = -1;
  }

  /** Forgets the event's losses and results. */
  clear(): void {
    this.site.clear();
    this.out.clear();
  }

  private bucketOf(n: number): Int32Array {
    if (this.bucket.length < n) this.bucket = new Int32Array(Math.max(n, this.bucket.length * 2));
    return this.bucket;
  }

  /**
   * Groups the block's slots by their node at a level (nodes in tNode, members in bucket from
   * tStart[m] to tStart[m + 1]); returns how many nodes are touched. When the block holds most of
   * the level's items, walking the level's nodes in order is cheaper than sorting the slots.
   */
  private group(lv: IndexedLevel, b: Block): number {
    return this.groupBy(lv.level.order, lv.level.start, lv.node, b);
  }

  /**
   * Groups the block's slots by key[ids[s]] (a node, a risk; −1: none), keys listed in order as
   * order[start[k] .. start[k + 1]]: walked in order when most are touched, else counted and placed.
   * Leaves `mark` set for the keys touched (tNode[0 .. t)).
   */
  private groupBy(order: Int32Array, start: Int32Array, key: Int32Array, b: Block): number {
    if (b.n * 2 >= order.length) return this.walk(order, start, b);
    const { mark, tNode, tStart } = this;
    let t = 0;
    // Counts first (tStart[m + 1]), then positions.
    for (let s = 0; s < b.n; s++) {
      const n = key[b.ids[s]!]!;
      if (n < 0) continue;
      let m = mark[n]!;
      if (m < 0) {
        m = t++;
        mark[n] = m;
        tNode[m] = n;
        tStart[m + 1] = 0;
      }
      tStart[m + 1]!++;
    }
    tStart[0] = 0;
    for (let m = 0; m < t; m++) tStart[m + 1]! += tStart[m]!;
    const bucket = this.bucketOf(tStart[t]!);
    const pos = this.pos;
    for (let m = 0; m < t; m++) pos[m] = tStart[m]!;
    for (let s = 0; s < b.n; s++) {
      const n = key[b.ids[s]!]!;
      if (n < 0) continue;
      bucket[pos[mark[n]!]!++] = s;
    }
    return t;
  }

  /** Groups the block's slots along nodes listed in order (node n: order[start[n] .. start[n + 1])), as group() does. */
  private walk(order: Int32Array, start: Int32Array, b: Block): number {
    const { tNode, tStart } = this;
    const bucket = this.bucketOf(b.n);
    const slot = b.slot;
    let t = 0;
    let q = 0;
    tStart[0] = 0;
    for (let n = 0; n < start.length - 1; n++) {
      const q0 = q;
      for (let i = start[n]!; i < start[n + 1]!; i++) {
        const sl = slot[order[i]!]!;
        if (sl >= 0) bucket[q++] = sl;
      }
      if (q > q0) {
        tNode[t++] = n;
        tStart[t] = q;
      }
    }
    return t;
  }

  /** One level's touched nodes over every column, back-allocated to the block's slots. */
  private applyLevel(lv: IndexedLevel, b: Block): void {
    const t = this.group(lv, b);
    const { tNode, tStart, mark } = this;
    const { order, start, profiles } = lv.level;
    for (let m = 0; m < t; m++) {
      const n = tNode[m]!;
      const size = start[n + 1]! - start[n]!;
      const members = tStart[m + 1]! - tStart[m]!;
      if (size === 1) {
        this.singleItemNode(profiles[n]!, b, this.bucket[tStart[m]!]!);
        continue;
      }
      const even = this.nodeTerms(profiles[n]!, b, this.bucket, tStart[m]!, tStart[m + 1]!);
      if (even && members < size) {
        // Untouched items share the node's change: take them in (zero loss) and allocate over all.
        const all = new Int32Array(size);
        for (let q = 0; q < size; q++) all[q] = b.take(order[start[n]! + q]!);
        this.allocate(b, all, 0, size, 1 / size);
      } else this.allocate(b, this.bucket, tStart[m]!, tStart[m + 1]!, 1 / size);
    }
    for (let m = 0; m < t; m++) mark[tNode[m]!] = -1;
  }

  /** A node of one item (a site coverage): its terms straight on the item's columns. */
  private singleItemNode(p: Profile, b: Block, slot: number): void {
    const C = this.columns;
    const { loss, deductible, overLimit, underLimit } = b;
    const base = slot * C;
    for (let c = 0; c < C; c++) {
      const l = loss[base + c]!;
      const d = deductible[base + c]!;
      const o = overLimit[base + c]!;
      const u = underLimit[base + c]!;
      if (l === 0 && d === 0 && o === 0 && u === 0) continue;
      x.deductible = d;
      x.overLimit = o;
      x.underLimit = u;
      const out = applyProfile(p, l, x);
      loss[base + c] = l > 0 ? out : 0;
      deductible[base + c] = x.deductible;
      overLimit[base + c] = x.overLimit;
      underLimit[base + c] = x.underLimit;
    }
  }

  /**
   * A node's terms per column on the sums of its members: factor f and changes dd, dO, dU. True when
   * some column has no loss but changed running amounts (shared evenly over the node's items).
   */
  private nodeTerms(p: Profile, b: Block, slots: Int32Array, q0: number, q1: number): boolean {
    const C = this.columns;
    const { sum, sd, so, su, f, dd, dO, dU } = this;
    zero(sum, C);
    zero(sd, C);
    zero(so, C);
    zero(su, C);
    const { loss, deductible, overLimit, underLimit } = b;
    for (let q = q0; q < q1; q++) {
      const base = slots[q]! * C;
      for (let c = 0; c < C; c++) {
        sum[c]! += loss[base + c]!;
        sd[c]! += deductible[base + c]!;
        so[c]! += overLimit[base + c]!;
        su[c]! += underLimit[base + c]!;
      }
    }
    let even = false;
    for (let c = 0; c < C; c++) {
      const s = sum[c]!;
      const d = sd[c]!;
      const o = so[c]!;
      const u = su[c]!;
      // Nothing reached the node in this column: its terms leave nothing to change.
      if (s === 0 && d === 0 && o === 0 && u === 0) {
        f[c] = 1;
        dd[c] = 0;
        dO[c] = 0;
        dU[c] = 0;
        continue;
      }
      x.deductible = d;
      x.overLimit = o;
      x.underLimit = u;
      const out = applyProfile(p, s, x);
      f[c] = s > 0 ? out / s : 0;
      dd[c] = x.deductible - d;
      dO[c] = x.overLimit - o;
      dU[c] = x.underLimit - u;
      if (s === 0 && (dd[c] !== 0 || dO[c] !== 0 || dU[c] !== 0)) even = true;
    }
    return even;
  }

  /** Each member keeps its share of the node's loss after the terms, pro rata to its loss before them; the running amounts' changes the same way. */
  private allocate(b: Block, slots: Int32Array, q0: number, q1: number, even: number): void {
    const C = this.columns;
    const { sum, f, dd, dO, dU } = this;
    const { loss, deductible, overLimit, underLimit } = b;
    for (let q = q0; q < q1; q++) {
      const base = slots[q]! * C;
      for (let c = 0; c < C; c++) {
        const s = sum[c]!;
        const l = loss[base + c]!;
        const w = s > 0 ? l / s : even;
        loss[base + c] = l * f[c]!;
        deductible[base + c]! += dd[c]! * w;
        overLimit[base + c]! += dO[c]! * w;
        underLimit[base + c]! += dU[c]! * w;
      }
    }
  }

  /**
   * The policies the site's slots reach, in programme order in chainList, each with its touched
   * items: site slot pairSlot[q] at local index pairLocal[q], q from pairFrom[t] to pairFrom[t + 1].
   * Returns how many.
   */
  private touchChains(): number {
    const { chainStart, chainOf, localOf } = this.ix;
    const site = this.site;
    const { chainMark, chainList, chainCount, pairFrom, pairPos } = this;
    let t = 0;
    for (let s = 0; s < site.n; s++) {
      const i = site.ids[s]!;
      for (let q = chainStart[i]!; q < chainStart[i + 1]!; q++) {
        const ci = chainOf[q]!;
        if (chainMark[ci]! < 0) {
          chainMark[ci] = t;
          chainList[t++] = ci;
          chainCount[ci] = 0;
        }
        chainCount[ci]!++;
      }
    }
    chainList.subarray(0, t).sort();
    let o = 0;
    for (let q = 0; q < t; q++) {
      const ci = chainList[q]!;
      chainMark[ci] = q;
      pairFrom[q] = o;
      pairPos[q] = o;
      o += chainCount[ci]!;
    }
    pairFrom[t] = o;
    if (this.pairSlot.length < o) {
      this.pairSlot = new Int32Array(Math.max(o, this.pairSlot.length * 2));
      this.pairLocal = new Int32Array(this.pairSlot.length);
    }
    for (let s = 0; s < site.n; s++) {
      const i = site.ids[s]!;
      for (let q = chainStart[i]!; q < chainStart[i + 1]!; q++) {
        const at = pairPos[chainMark[chainOf[q]!]!]!++;
        this.pairSlot[at] = s;
        this.pairLocal[at] = localOf[q]!;
      }
    }
    return t;
  }

  /** One policy (the t-th touched): its levels on the site output of its touched items, then its layers into output rows. */
  private runChain(t: number): void {
    const C = this.columns;
    const ci = this.chainList[t]!;
    const chain = this.insurance.chains[ci]!;
    const site = this.site;
    const cb = this.chain;
    cb.clear();
    for (let q = this.pairFrom[t]!; q < this.pairFrom[t + 1]!; q++) {
      const s = this.pairSlot[q]!;
      const to = cb.take(this.pairLocal[q]!) * C;
      const from = s * C;
      const { loss, deductible, overLimit, underLimit } = cb;
      for (let c = 0; c < C; c++) {
        loss[to + c] = site.loss[from + c]!;
        deductible[to + c] = site.deductible[from + c]!;
        overLimit[to + c] = site.overLimit[from + c]!;
        underLimit[to + c] = site.underLimit[from + c]!;
      }
    }
    // A column no loss reached gives the policy nothing (its rows 0, nothing handed up).
    const reached = this.reached;
    const { sum, sd, so, su } = this;
    zero(sum, C);
    for (let s = 0; s < cb.n; s++) for (let c = 0; c < C; c++) sum[c]! += cb.loss[s * C + c]! + cb.deductible[s * C + c]! + cb.overLimit[s * C + c]!;
    for (let c = 0; c < C; c++) reached[c] = sum[c] === 0 ? 0 : 1;
    for (const lv of this.ix.chainLevels[ci]!) this.applyLevel(lv, cb);
    zero(sum, C);
    zero(sd, C);
    zero(so, C);
    zero(su, C);
    for (let s = 0; s < cb.n; s++) {
      const b = s * C;
      for (let c = 0; c < C; c++) {
        sum[c]! += cb.loss[b + c]!;
        sd[c]! += cb.deductible[b + c]!;
        so[c]! += cb.overLimit[b + c]!;
        su[c]! += cb.underLimit[b + c]!;
      }
    }
    const ce = this.chainExtras;
    const e0 = ci * 3 * C;
    ce.fill(0, e0, e0 + 3 * C);
    const out = this.out;
    const m = chain.items.length;
    const f = this.f;
    this.rowsFrom[ci] = out.n;
    for (let k = 0; k < chain.layers.length; k++) {
      const pr = chain.layers[k]!.profile;
      for (let c = 0; c < C; c++) {
        if (reached[c] === 0) {
          f[c] = 0;
          continue;
        }
        x.deductible = sd[c]!;
        x.overLimit = so[c]!;
        x.underLimit = su[c]!;
        const total = sum[c]!;
        const o = applyProfile(pr, total, x);
        ce[e0 + c]! += x.deductible;
        ce[e0 + C + c]! += x.overLimit;
        ce[e0 + 2 * C + c]! += x.underLimit;
        f[c] = total > 0 ? o / total : 0;
      }
      const base = chain.rowStart + k * m;
      for (let s = 0; s < cb.n; s++) {
        const r = out.take(base + cb.ids[s]!);
        for (let c = 0; c < C; c++) out.loss[r * C + c] = cb.loss[s * C + c]! * f[c]!;
      }
    }
    this.rowsTo[ci] = out.n;
  }

  /** Each touched account's blanket terms on the sum of its policies' layers, their running amounts summed as well. */
  private accounts(nTouched: number): void {
    const C = this.columns;
    const p = this.insurance;
    const { sum, sd, so, su, f } = this;
    const ce = this.chainExtras;
    const out = this.out;
    for (let t = 0; t < nTouched; t++) {
      const a = p.chains[this.chainList[t]!]!.account;
      if (this.accountMark[a] === 1) continue;
      this.accountMark[a] = 1;
      const acc = p.accounts[a]!;
      const pr = acc.profile;
      if (pr === null || passesThrough(pr)) continue;
      zero(sum, C);
      zero(sd, C);
      zero(so, C);
      zero(su, C);
      for (const ci of acc.chains) {
        if (this.chainMark[ci]! < 0) continue;
        for (let s = this.rowsFrom[ci]!; s < this.rowsTo[ci]!; s++) for (let c = 0; c < C; c++) sum[c]! += out.loss[s * C + c]!;
        const e0 = ci * 3 * C;
        for (let c = 0; c < C; c++) {
          sd[c]! += ce[e0 + c]!;
          so[c]! += ce[e0 + C + c]!;
          su[c]! += ce[e0 + 2 * C + c]!;
        }
      }
      for (let c = 0; c < C; c++) {
        x.deductible = sd[c]!;
        x.overLimit = so[c]!;
        x.underLimit = su[c]!;
        const total = sum[c]!;
        const o = applyProfile(pr, total, x);
        f[c] = total > 0 ? o / total : 0;
      }
      for (const ci of acc.chains) {
        if (this.chainMark[ci]! < 0) continue;
        for (let s = this.rowsFrom[ci]!; s < this.rowsTo[ci]!; s++) for (let c = 0; c < C; c++) out.loss[s * C + c] = out.loss[s * C + c]! * f[c]!;
      }
    }
    for (let t = 0; t < nTouched; t++) this.accountMark[p.chains[this.chainList[t]!]!.account] = 0;
  }

  /** Groups the touched rows by their risk in a contract, as group() does nodes; returns how many risks are touched. */
  private groupRisks(contract: ReinsuranceContract, risk: Int32Array): number {
    const out = this.out;
    if (out.n * 2 >= contract.order.length) return this.walk(contract.order, contract.start, out);
    const t = this.groupBy(contract.order, contract.start, risk, out);
    for (let m = 0; m < t; m++) this.mark[this.tNode[m]!] = -1;
    return t;
  }

  /** One reinsurance pass on the touched rows' net (out.deductible): every contract on the same input, the net less what they cede. */
  private reinsurancePass(pass: readonly IndexedContract[]): void {
    const C = this.columns;
    const out = this.out;
    const net = out.deductible;
    const ceded = out.overLimit;
    const used = out.n * C;
    if (pass.length > 1) ceded.fill(0, 0, used);
    const { tNode, tStart, sum } = this;
    const totals = this.sd;
    const g = this.so;
    for (const { contract, risk } of pass) {
      const t = this.groupRisks(contract, risk);
      if (t === 0) continue;
      const bucket = this.bucket;
      // Each risk's share ceded per column (riskShare[m × C + c]), then the occurrence's on the total.
      if (this.riskShare.length < t * C) this.riskShare = new Float64Array(Math.max(t * C, this.riskShare.length * 2));
      const share = this.riskShare;
      zero(totals, C);
      for (let m = 0; m < t; m++) {
        const terms = contract.risk[tNode[m]!]!;
        zero(sum, C);
        for (let q = tStart[m]!; q < tStart[m + 1]!; q++) {
          const b = bucket[q]! * C;
          for (let c = 0; c < C; c++) sum[c]! += net[b + c]!;
        }
        const at = m * C;
        for (let c = 0; c < C; c++) {
          const v = sum[c]!;
          const o = cede(terms, v);
          share[at + c] = v > 0 ? o / v : 0;
          totals[c]! += o;
        }
      }
      for (let c = 0; c < C; c++) {
        const total = totals[c]!;
        g[c] = total > 0 ? cede(contract.occurrence, total) / total : 0;
      }
      // A pass of one contract (the usual case) takes its cession off the net at once.
      const alone = pass.length === 1;
      for (let m = 0; m < t; m++) {
        const at = m * C;
        for (let c = 0; c < C; c++) share[at + c] = share[at + c]! * g[c]!;
        for (let q = tStart[m]!; q < tStart[m + 1]!; q++) {
          const b = bucket[q]! * C;
          if (alone) for (let c = 0; c < C; c++) net[b + c] = net[b + c]! - net[b + c]! * share[at + c]!;
          else for (let c = 0; c < C; c++) ceded[b + c]! += net[b + c]! * share[at + c]!;
        }
      }
    }
    if (pass.length > 1) for (let q = 0; q < used; q++) net[q] = net[q]! - ceded[q]!;
  }
}


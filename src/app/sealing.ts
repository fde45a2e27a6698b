// What the environment's sealing keys must open: every exchange listing's credentials and every
// webhook's signing secret (domain/sealing.ts). The check a process makes at start, and `catrisk
// keys reseal`, which seals everything again under the key that seals now, so an older key can go.
import { open, seal, unopenableReason } from '../domain/sealing.js';
import { refusal } from '../kernel/refusal.js';
import { ok, refused, type Result } from '../kernel/result.js';
import type { SealedColumn, SealedValue } from '../store/sealed-values.js';
import type { AppDeps } from './deps.js';

type SealingDeps = Pick<AppDeps, 'config' | 'exchange' | 'monitoring'>;

/** Each kind of sealed value, named as the reseal report and the start-up faults name it. */
export type SealedKind = 'exchange_credentials' | 'webhook_secrets';

function columns(deps: SealingDeps): Array<{ kind: SealedKind; column: SealedColumn }> {
  return [
    { kind: 'exchange_credentials', column: deps.exchange.sealedCredentials },
    { kind: 'webhook_secrets', column: deps.monitoring.sealedSecrets },
  ];
}

/** Values of one kind sealed under a key the environment cannot open them with. */
export interface SealingFault {
  readonly kind: SealedKind;
  readonly keyId: string;
  /** How many values are sealed under that key id. */
  readonly count: number;
  /** Why they do not open, naming the key id, never a key. */
  readonly reason: string;
}

/** How many of a key's values are tried: the key is wrong when none of them opens. */
const SAMPLE = 3;

/**
 * For each kind and each key id values are sealed under: whether this environment holds that key
 * and whether the key it holds under that id opens them (a few of them are tried). A
 * fault means the key is missing, or a different key was given under its id.
 */
export async function sealingFaults(deps: SealingDeps): Promise<SealingFault[]> {
  const keys = deps.config.sealing.keys;
  const faults: SealingFault[] = [];
  for (const { kind, column } of columns(deps)) {
    for (const { keyId, count } of await column.keyIds()) {
      const sample = await column.sample(keyId, SAMPLE);
      if (sample.length === 0 || sample.some((v) => open(v, v.id, keys) !== undefined)) continue;
      faults.push({ kind, keyId, count, reason: unopenableReason(sample[0]!, keys) });
    }
  }
  return faults;
}

export interface ResealCount {
  /** Sealed again under the key that seals now. */
  resealed: number;
  /** Already sealed under it: left as they were. */
  already_current: number;
  /** Changed by another process while being resealed (written again, or removed): left to it. */
  changed_meanwhile: number;
  /** Values the keys held cannot open: left as they were, each with why. */
  unopenable: Array<{ id: string; key_id: string; reason: string }>;
}

export interface ResealReport {
  /** The id of the key every value is now sealed under. */
  sealing_key: string;
  exchange_credentials: ResealCount;
  webhook_secrets: ResealCount;
}

const PAGE = 500;

/**
 * Seals every sealed value again under the first key (the one that seals), opening each with the
 * key it names. A value is replaced only if it is still the one read, so a value written meanwhile
 * by a running process (sealed under the same key) is kept. Refused when no key seals.
 */
export async function resealAll(deps: SealingDeps): Promise<Result<ResealReport>> {
  const keys = deps.config.sealing.keys;
  const current = keys[0];
  if (!current) {
    return refused(refusal(503, 'server_error', 'No sealing key is set: set CATRISK_SEALING_KEY to the key that seals, and CATRISK_SEALING_KEYS_PREVIOUS to the keys that open what is stored.'));
  }
  const report: ResealReport = {
    sealing_key: current.id,
    exchange_credentials: emptyCount(),
    webhook_secrets: emptyCount(),
  };
  for (const { kind, column } of columns(deps)) {
    const count = report[kind];
    for (let after: string | null = null; ;) {
      const page: SealedValue[] = await column.page(after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.id;
      for (const value of page) {
        if (value.keyId === current.id) {
          count.already_current += 1;
          continue;
        }
        const plain = open(value, value.id, keys);
        if (plain === undefined) {
          count.unopenable.push({ id: value.id, key_id: value.keyId, reason: unopenableReason(value, keys) });
          continue;
        }
        if (await column.replace(value, seal(plain, value.id, keys)!)) count.resealed += 1;
        else count.changed_meanwhile += 1;
      }
    }
  }
  return ok(report);
}

function emptyCount(): ResealCount {
  return { resealed: 0, already_current: 0, changed_meanwhile: 0, unopenable: [] };
}

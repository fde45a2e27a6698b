// Seeded pseudo-random numbers for simulations and tests: the caller always supplies the seed, so
// every figure drawn from it can be replayed.
//
// Generator: xoshiro128** 1.0 (Blackman & Vigna 2018, https://prng.di.unimi.it/xoshiro128starstar.c).
// Seeding: the 128-bit state is filled from two outputs of SplitMix64 (Steele, Lea & Flood 2014,
// https://prng.di.unimi.it/splitmix64.c), as the xoshiro authors recommend.

const MASK64 = (1n << 64n) - 1n;

/** One SplitMix64 step: returns [next state, output], both as unsigned 64-bit bigints. */
export function splitMix64(state: bigint): [bigint, bigint] {
  const next = (state + 0x9e3779b97f4a7c15n) & MASK64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return [next, z ^ (z >> 31n)];
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

export interface SeededRandom {
  /** Next unsigned 32-bit integer. */
  nextUint32(): number;
  /** Uniform on [0, 1) with 53 random bits. */
  uniform(): number;
  /** Uniform on the open interval (0, 1): safe to feed to a quantile function or a logarithm. */
  uniformOpen(): number;
}

/** A xoshiro128** generator seeded from any integer (bigint or a safe-integer number). */
export function seededRandom(seed: number | bigint): SeededRandom {
  if (typeof seed === 'number' && !Number.isSafeInteger(seed)) {
    throw new RangeError(`seed must be a safe integer, got ${seed}`);
  }
  let sm = BigInt.asUintN(64, BigInt(seed));
  let word0: bigint;
  let word1: bigint;
  [sm, word0] = splitMix64(sm);
  [sm, word1] = splitMix64(sm);
  const s = new Uint32Array([
    Number(word0 & 0xffffffffn),
    Number(word0 >> 32n),
    Number(word1 & 0xffffffffn),
    Number(word1 >> 32n),
  ]);
  // An all-zero state would stay zero forever; SplitMix64 makes it practically impossible, but guard it.
  if (s[0] === 0 && s[1] === 0 && s[2] === 0 && s[3] === 0) s[0] = 1;

  function nextUint32(): number {
    const s0 = s[0]!;
    const s1 = s[1]!;
    const s2 = s[2]!;
    const s3 = s[3]!;
    const result = (Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0);
    const t = (s1 << 9) >>> 0;
    const n2 = (s2 ^ s0) >>> 0;
    const n3 = (s3 ^ s1) >>> 0;
    s[1] = s1 ^ n2;
    s[0] = s0 ^ n3;
    s[2] = n2 ^ t;
    s[3] = rotl(n3, 11);
    return result;
  }

  function bits53(): number {
    // 27 high bits of one draw and 26 of the next, the usual construction of a 53-bit double.
    return (nextUint32() >>> 5) * 67108864 + (nextUint32() >>> 6);
  }

  return {
    nextUint32,
    uniform: () => bits53() / 9007199254740992,
    uniformOpen: () => (bits53() + 0.5) / 9007199254740992,
  };
}

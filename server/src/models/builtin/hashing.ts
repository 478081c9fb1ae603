/**
 * MurmurHash3 (x86, 32-bit) over UTF-16 code units: a fast, well-mixed and platform-independent hash,
 * so that a feature lands in the same dimension in every process.
 */
export function murmur3(text: string, seed: number): number {
  let h = seed >>> 0;
  const length = text.length;
  let i = 0;
  // Two UTF-16 code units make one 32-bit block.
  for (; i + 1 < length; i += 2) {
    let k = (text.charCodeAt(i) & 0xffff) | ((text.charCodeAt(i + 1) & 0xffff) << 16);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (i < length) {
    let k = text.charCodeAt(i) & 0xffff;
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
  }
  h ^= length * 2;
  return finalMix(h);
}

/** Murmur's finaliser: every input bit affects every output bit. */
export function finalMix(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** One hash for an unordered pair of hashes. */
export function pairHash(a: number, b: number): number {
  const [low, high] = a < b ? [a, b] : [b, a];
  return finalMix((Math.imul(low, 0x9e3779b1) ^ high) >>> 0);
}

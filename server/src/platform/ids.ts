import { randomBytes } from "node:crypto";

// Gregorian offset of UUID time: 100-ns intervals between 1582-10-15 and 1970-01-01.
const GREGORIAN_OFFSET = 122192928000000000n;
const node = randomBytes(6);
node[0] |= 0x01; // multicast bit: marks a random node id, as RFC 9562 asks
let clockSeq = randomBytes(2).readUInt16BE(0) & 0x3fff;
let lastTimestamp = 0n;

/**
 * A version-1 UUID as 32 lower-case hex characters: the id format of every RAGFlow entity, which the
 * REST facade's dataset endpoints validate. Time-ordered, so primary-key indexes stay compact.
 */
export function newId(): string {
  let timestamp = BigInt(Date.now()) * 10000n + GREGORIAN_OFFSET;
  if (timestamp <= lastTimestamp) {
    timestamp = lastTimestamp + 1n;
  }
  if (timestamp - lastTimestamp > 10000n * 1000n) clockSeq = (clockSeq + 1) & 0x3fff;
  lastTimestamp = timestamp;
  const timeLow = Number(timestamp & 0xffffffffn);
  const timeMid = Number((timestamp >> 32n) & 0xffffn);
  const timeHigh = Number((timestamp >> 48n) & 0x0fffn) | 0x1000;
  const bytes = Buffer.alloc(16);
  bytes.writeUInt32BE(timeLow, 0);
  bytes.writeUInt16BE(timeMid, 4);
  bytes.writeUInt16BE(timeHigh, 6);
  bytes.writeUInt16BE(clockSeq | 0x8000, 8);
  node.copy(bytes, 10);
  return bytes.toString("hex");
}

/** A URL-safe random secret with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

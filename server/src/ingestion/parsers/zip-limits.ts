import zlib from "node:zlib";
import { ParseError } from "../types";
import { MEGABYTE, PARSE_LIMITS } from "./limits";

/**
 * Zip containers (docx, xlsx, pptx) are checked before a library unpacks them: the number of parts, and what
 * they really expand to. The sizes a zip declares can lie, so each part is inflated once here, counting the
 * bytes and keeping none, and the check stops as soon as the total passes the limit. A container that is
 * damaged is left to the parser, which says so in its own words.
 */

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

interface Entry {
  method: number;
  compressedSize: number;
  declaredSize: number;
  localHeaderOffset: number;
}

function findEnd(data: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535.
  for (let offset = data.length - 22; offset >= Math.max(0, data.length - 22 - 65535); offset -= 1) {
    if (data.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  return -1;
}

function centralDirectory(data: Buffer, end: number): { offset: number; entries: number } {
  let offset = data.readUInt32LE(end + 16);
  let entries = data.readUInt16LE(end + 10);
  const locator = end - 20;
  if ((offset === 0xffffffff || entries === 0xffff) && locator >= 0 && data.readUInt32LE(locator) === ZIP64_LOCATOR) {
    const record = Number(data.readBigUInt64LE(locator + 8));
    if (record + 56 <= data.length && data.readUInt32LE(record) === ZIP64_END) {
      entries = Number(data.readBigUInt64LE(record + 32));
      offset = Number(data.readBigUInt64LE(record + 48));
    }
  }
  return { offset, entries };
}

function readEntries(data: Buffer): Entry[] | null {
  const end = findEnd(data);
  if (end < 0) return null;
  const directory = centralDirectory(data, end);
  if (directory.entries > PARSE_LIMITS.zipEntries) throw ParseError.because("errors.parsing.tooManyParts", { limit: PARSE_LIMITS.zipEntries });
  const entries: Entry[] = [];
  let offset = directory.offset;
  while (offset + 46 <= data.length && data.readUInt32LE(offset) === CENTRAL_ENTRY) {
    if (entries.length === PARSE_LIMITS.zipEntries) throw ParseError.because("errors.parsing.tooManyParts", { limit: PARSE_LIMITS.zipEntries });
    entries.push({
      method: data.readUInt16LE(offset + 10),
      compressedSize: data.readUInt32LE(offset + 20),
      declaredSize: data.readUInt32LE(offset + 24),
      localHeaderOffset: data.readUInt32LE(offset + 42),
    });
    offset += 46 + data.readUInt16LE(offset + 28) + data.readUInt16LE(offset + 30) + data.readUInt16LE(offset + 32);
  }
  return entries;
}

/** Inflates `compressed`, counting its output against `budget`; resolves with the bytes produced, or with -1 past the budget. */
function inflatedSize(compressed: Buffer, budget: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = zlib.createInflateRaw({ chunkSize: 64 * 1024 });
    let produced = 0;
    inflate.on("data", (chunk: Buffer) => {
      produced += chunk.length;
      if (produced > budget) {
        inflate.destroy();
        resolve(-1);
      }
    });
    // a damaged stream is the parser's to report
    inflate.on("error", () => resolve(produced));
    inflate.on("end", () => resolve(produced));
    inflate.end(compressed);
  });
}

export async function checkZipContainer(data: Buffer): Promise<void> {
  const entries = readEntries(data);
  if (!entries) return;
  const limit = PARSE_LIMITS.expandedBytes;
  const tooLarge = () => ParseError.because("errors.parsing.expandsBeyond", { limit: limit / MEGABYTE });
  let total = 0;
  for (const entry of entries) {
    const header = entry.localHeaderOffset;
    if (header + 30 > data.length || data.readUInt32LE(header) !== LOCAL_HEADER) continue;
    const start = header + 30 + data.readUInt16LE(header + 26) + data.readUInt16LE(header + 28);
    const compressed = data.subarray(start, Math.min(data.length, start + entry.compressedSize));
    if (entry.method === STORED) total += compressed.length;
    else if (entry.method === DEFLATED) {
      const size = await inflatedSize(compressed, limit - total);
      if (size < 0) throw tooLarge();
      total += size;
    } else total += entry.declaredSize;
    if (total > limit) throw tooLarge();
  }
}

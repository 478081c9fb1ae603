import { ParseError } from "../types";
import { PARSE_LIMITS } from "./limits";

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** JPEG: the first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC) holds the frame's height and width. */
function jpegSize(data: Buffer): ImageSize | null {
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1];
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = data.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    }
    if (length < 2) return null;
    offset += 2 + length;
  }
  return null;
}

function webpSize(data: Buffer): ImageSize | null {
  const format = data.subarray(12, 16).toString("latin1");
  if (format === "VP8 " && data.length >= 30) return { width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  if (format === "VP8L" && data.length >= 25) {
    const bits = data.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (format === "VP8X" && data.length >= 30) return { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  return null;
}

/** The size a picture says it has, read from its header without decoding it; null for formats OCR cannot read. */
export function imageSize(data: Buffer): ImageSize | null {
  if (data.length >= 24 && data.subarray(0, 8).equals(PNG_SIGNATURE) && data.subarray(12, 16).toString("latin1") === "IHDR") {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return jpegSize(data);
  if (data.length >= 10 && /^GIF8[79]a/.test(data.subarray(0, 6).toString("latin1"))) return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  if (data.length >= 16 && data.subarray(0, 4).toString("latin1") === "RIFF" && data.subarray(8, 12).toString("latin1") === "WEBP") return webpSize(data);
  if (data.length >= 26 && data.subarray(0, 2).toString("latin1") === "BM") return { width: Math.abs(data.readInt32LE(18)), height: Math.abs(data.readInt32LE(22)) };
  return null;
}

/**
 * Refuses a picture before OCR decodes it: one whose header cannot be read, or whose pixels exceed the limit
 * (a 60000×60000 PNG of a few kilobytes would need 14 GB once decoded).
 */
export function checkDecodable(data: Buffer): ImageSize {
  const size = imageSize(data);
  if (!size || size.width === 0 || size.height === 0) throw ParseError.because("errors.parsing.imageUnreadable");
  if (size.width * size.height > PARSE_LIMITS.imagePixels) {
    throw ParseError.because("errors.parsing.imageTooLarge", { width: size.width, height: size.height, limit: PARSE_LIMITS.imagePixels / 1e6 });
  }
  return size;
}

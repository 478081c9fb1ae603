import zlib from "node:zlib";

/** Samples per pixel: grey, RGB or RGBA, 8 bits each. */
export type PngChannels = 1 | 3 | 4;

const COLOUR_TYPE: Record<PngChannels, number> = { 1: 0, 3: 2, 4: 6 };
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typeAndBody = Buffer.concat([Buffer.from(type, "latin1"), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typeAndBody));
  return Buffer.concat([length, typeAndBody, crc]);
}

/** Encodes raw 8-bit pixels, row by row from the top, as a PNG (no filtering: OCR input, not an archive). */
export function encodePng(width: number, height: number, pixels: Uint8Array | Uint8ClampedArray, channels: PngChannels): Buffer {
  const stride = width * channels;
  if (pixels.length < stride * height) throw new Error(`expected ${stride * height} bytes of pixels, got ${pixels.length}`);
  const rows = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1) {
    Buffer.from(pixels.buffer, pixels.byteOffset + y * stride, stride).copy(rows, y * (stride + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = COLOUR_TYPE[channels];
  return Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

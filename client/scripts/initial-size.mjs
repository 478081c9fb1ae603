// Prints what a first visit downloads before any page chunk: the entry script of dist/index.html and
// every module it preloads, raw and gzipped. Run after `npm run build -w client`.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const html = readFileSync(join(dist, "index.html"), "utf8");
const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);

let raw = 0;
let gzip = 0;
for (const file of files) {
  const content = readFileSync(join(dist, file));
  const zipped = gzipSync(content, { level: 9 }).length;
  raw += content.length;
  gzip += zipped;
  console.log(`${file.padEnd(52)} ${(content.length / 1024).toFixed(1).padStart(8)} kB ${(zipped / 1024).toFixed(1).padStart(8)} kB gzip`);
}
console.log(`${"initial total".padEnd(52)} ${(raw / 1024).toFixed(1).padStart(8)} kB ${(gzip / 1024).toFixed(1).padStart(8)} kB gzip`);

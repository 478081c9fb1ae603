// node tests/bench/man-pages-set.mjs <language> <output directory> — a known-item retrieval set in BEIR layout
// (corpus.jsonl, queries.jsonl, qrels.tsv) from the manual pages Debian ships translated, for languages no public set on
// this machine covers: `apt-get install manpages-es manpages-es-dev` (Spanish, ~650 pages), `manpages-id` (Indonesian,
// ~35) or `manpages-zh` (Chinese: zh_CN in Simplified script, ~170 pages, and zh_TW in Traditional). Each page is a document without its NAME section, titled by its names ("ls(1)"); the query is the NAME
// section's one-line description ("lista el contenido de un directorio"), which the page's text has to answer in its
// own words. Pages sharing a description are all relevant to it. Then: npm run bench:retrieval -- <output directory>.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const [language, out] = process.argv.slice(2);
const manDirectory = `/usr/share/man/${language}`;
if (!language || !out || !fs.existsSync(manDirectory)) {
  console.error("usage: node tests/bench/man-pages-set.mjs <language, e.g. es> <output directory>; install Debian's manpages-<language> first");
  process.exit(2);
}

const NAMED_CHARACTERS = { em: "—", en: "–", aq: "'", dq: '"', lq: "“", rq: "”", oq: "‘", cq: "’", co: "©", rg: "®", bu: "•", hy: "-", mi: "-", ti: "~", ha: "^", rs: "\\", at: "@", sh: "#", Do: "$", pl: "+", eq: "=", mu: "×", di: "÷", "<=": "≤", ">=": "≥", "->": "→", "<-": "←" };

/** The text of a roff line: font changes, sizes and strings dropped, escaped characters spelled. */
function plain(line) {
  return line
    .replace(/\\f(\(..|\[[^\]]*\]|.)/g, "")
    .replace(/\\s[+-]?\d/g, "")
    .replace(/\\\*(\(..|\[[^\]]*\]|.)/g, "")
    .replace(/\\\((..)/g, (_, name) => NAMED_CHARACTERS[name] ?? "")
    .replace(/\\\[([^\]]*)\]/g, (_, name) => NAMED_CHARACTERS[name] ?? "")
    .replace(/\\[-e]/g, (escape) => (escape === "\\-" ? "-" : "\\"))
    .replace(/\\[&,/c%:|^]/g, "")
    .replace(/\\ /g, " ")
    .replace(/\\(.)/g, "$1");
}

/** A page's sections as [heading, text] pairs; macros that only lay out text are dropped, their words kept. */
function sections(source) {
  const result = [];
  let current = null;
  for (const raw of source.split("\n")) {
    if (/^['.]\s*\\"/.test(raw)) continue;
    const macro = /^[.']\s*([A-Za-z]{1,3})\s*(.*)$/.exec(raw);
    if (macro && (macro[1] === "SH" || macro[1] === "Sh")) {
      current = [plain(macro[2].replace(/"/g, "")).trim(), []];
      result.push(current);
      continue;
    }
    if (!current) continue;
    if (macro) {
      const words = /^(B|I|BR|RB|IR|RI|BI|IB|SS|SM|SB|Nm|Nd|Ar|Fl|Pa|Xr)$/.test(macro[1]) ? macro[2].replace(/"/g, "") : "";
      if (words.trim()) current[1].push(plain(words));
      continue;
    }
    current[1].push(plain(raw));
  }
  return result.map(([heading, lines]) => [heading, lines.join("\n").replace(/[ \t]+/g, " ").trim()]);
}

const corpus = [];
const byDescription = new Map();
for (const section of fs.readdirSync(manDirectory).filter((d) => /^man\d/.test(d)).sort()) {
  for (const file of fs.readdirSync(path.join(manDirectory, section)).sort()) {
    const full = path.join(manDirectory, section, file);
    if (fs.lstatSync(full).isSymbolicLink()) continue; // another name of a page read under its own
    const source = file.endsWith(".gz") ? zlib.gunzipSync(fs.readFileSync(full)).toString("utf8") : fs.readFileSync(full, "utf8");
    if (/^\.so\s/m.test(source.slice(0, 200)) && source.split("\n").filter(Boolean).length < 3) continue; // a link to another page
    const [name, ...rest] = sections(source);
    if (!name || rest.length === 0) continue;
    const split = /^(.*?)\s+[-–—]\s+(.*)$/s.exec(name[1].replace(/\s+/g, " "));
    if (!split) continue;
    const description = split[2].trim();
    if (description.split(/\s+/).length < 2) continue;
    const id = file.replace(/\.gz$/, "");
    const number = section.slice(3);
    const title = split[1].split(/,\s*/).map((n) => `${n.trim()}(${number})`).join(", ");
    const text = rest.map(([heading, body]) => `${heading}\n${body}`).join("\n\n");
    corpus.push({ _id: id, title, text });
    const key = description.toLowerCase();
    if (!byDescription.has(key)) byDescription.set(key, { text: description, ids: [] });
    byDescription.get(key).ids.push(id);
  }
}

fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, "corpus.jsonl"), corpus.map((d) => JSON.stringify(d)).join("\n") + "\n");
const queries = [...byDescription.values()].map((q, i) => ({ _id: `q${i + 1}`, text: q.text, ids: q.ids }));
fs.writeFileSync(path.join(out, "queries.jsonl"), queries.map(({ _id, text }) => JSON.stringify({ _id, text })).join("\n") + "\n");
fs.writeFileSync(path.join(out, "qrels.tsv"), ["query-id\tcorpus-id\tscore", ...queries.flatMap((q) => q.ids.map((id) => `${q._id}\t${id}\t1`))].join("\n") + "\n");
console.log(`${language}: ${corpus.length} pages, ${queries.length} queries written to ${out}`);

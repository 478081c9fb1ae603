// npm run bench:retrieval-growth -- <BEIR dir> — how retrieval latency grows with the knowledge base.
// Ingests the corpus through the real pipeline (embedded mode, built-in models), then grows the same knowledge base
// to BENCH_GROWTH copies of it (default 1,2,4,8,16: SciFact's 5,786 chunks to ~93,000), copying its documents and
// chunks inside the database: each copy goes through the chunk table's own triggers (postings, collection
// statistics, counters), and the vector index is built when the knowledge base outgrows exact search, as ingestion would
// build it (never on the embedded database, where the bench runs). Copies are the corpus again, so every query term's postings grow with the copies, as they do for more
// text of the same kind. At each size it asks every judged query (after an untimed pass) through the retrieval
// service with its defaults and prints latency p50/p95/p99, the keyword and vector stages' p50/p95, the postings the
// query terms read (p50/p95), and the database's size, first on postings read row by row (as just after a change), then
// packed (knowledge/packed-postings.ts, as the server packs them once the knowledge base stops changing: time printed); then the same figures fitted per 100,000 chunks, which the
// README extrapolates to a million. Writes tests/bench/results/retrieval-growth-<corpus>.json.
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { ingestCorpus, loadBeir, machine, root, startBenchServer, writeResult } from "./beir.mjs";

const require = createRequire(import.meta.url);
const { indexVectorsWhenLarge } = require(path.join(root, "server/dist/knowledge/chunk-store.js"));
const { isEmbedded } = require(path.join(root, "server/dist/platform/database.js"));
const { weightedQueryTerms } = require(path.join(root, "server/dist/retrieval/query-terms.js"));

const beir = loadBeir(process.argv[2]);
const chinese = /[\u4e00-\u9fff]/.test(beir.corpus.slice(0, 20).map((d) => d.text).join(""));
const queries = beir.queries.filter((q) => beir.qrels.has(q._id)).slice(0, Number(process.env.BENCH_QUERIES ?? Infinity));
const growth = String(process.env.BENCH_GROWTH ?? "1,2,4,8,16").split(",").map(Number).filter((n) => Number.isInteger(n) && n >= 1).sort((a, b) => a - b);
/** Documents copied per statement. */
const COPY_BATCH = 500;

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const spread = (values) => ({ p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99) });
const ms = (l) => `p50 ${l.p50.toFixed(1)}, p95 ${l.p95.toFixed(1)} ms`;

const bench = await startBenchServer();
try {
  const { services, principal } = bench;
  const { db } = services.platform;
  // The bench packs when it measures packed postings; the server's own packer would pack mid-measurement.
  await services.postingsPacker.stop();
  const { kb, seconds } = await ingestCorpus(bench, beir.name, beir.corpus, chinese ? "Chinese" : "English");
  console.log(`${beir.name}: ${kb.documentCount} documents, ${kb.chunkCount} chunks ingested in ${seconds.total.toFixed(1)} s; ${queries.length} queries`);
  const originals = (await db.query(`SELECT id FROM document WHERE knowledge_base_id = $1 ORDER BY id`, [kb.id])).map((r) => r.id);
  const [{ dimension }] = await db.query(`SELECT max(dimension) AS dimension FROM chunk WHERE knowledge_base_id = $1`, [kb.id]);

  /** A table's writable columns, with the expressions that make a copy's row (`copy` is the copy's number, $2). */
  async function copyColumns(table, replaced) {
    const columns = (await db.query(`SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`, [table])).map((r) => r.column_name);
    return { names: columns.map((c) => `"${c}"`).join(", "), values: columns.map((c) => replaced[c] ?? `"${c}"`).join(", ") };
  }
  const copyId = (column) => `md5(${column} || ':' || $2::text)`;
  const documentColumns = await copyColumns("document", { id: copyId("id"), name: `name || ' (' || $2::text || ')'` });
  const chunkColumns = await copyColumns("chunk", { id: copyId("id"), document_id: copyId("document_id") });

  /** One more copy of the original documents and their chunks, batch by batch, each batch a transaction. */
  async function copyCorpus(copy) {
    for (let i = 0; i < originals.length; i += COPY_BATCH) {
      const batch = originals.slice(i, i + COPY_BATCH);
      await db.transaction(async (m) => {
        await m.query(`INSERT INTO document (${documentColumns.names}) SELECT ${documentColumns.values} FROM document WHERE id = ANY($1)`, [batch, copy]);
        await m.query(`INSERT INTO chunk (${chunkColumns.names}) SELECT ${chunkColumns.values} FROM chunk WHERE document_id = ANY($1)`, [batch, copy]);
      });
    }
  }

  const termsOf = new Map();
  for (const query of queries) termsOf.set(query._id, (await weightedQueryTerms(query.text)).map((t) => t.term));

  /** Every query with the service's defaults, after an untimed pass: latency, stage times and postings read. */
  async function measure() {
    const ask = (query) => services.retrieval.retrieve(principal, { question: query.text, knowledgeBaseIds: [kb.id] });
    for (const query of queries) await ask(query);
    const latency = [];
    const keyword = [];
    const vector = [];
    for (const query of queries) {
      const started = performance.now();
      const { timings } = await ask(query);
      latency.push(performance.now() - started);
      keyword.push(timings.keywordMs);
      vector.push(timings.vectorMs);
    }
    return { latencyMs: spread(latency), keywordMs: spread(keyword), vectorMs: spread(vector) };
  }

  /** How many postings each query's terms have: what the keyword stage reads, row by row or packed. */
  async function postingsRead() {
    const postings = [];
    for (const query of queries) {
      const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM chunk_term WHERE knowledge_base_id = $1 AND term = ANY($2)`, [kb.id, termsOf.get(query._id)]);
      postings.push(count);
    }
    return spread(postings);
  }

  /** Runs `work` while asking the database `SELECT 1` again and again: how long, at most, another statement waited meanwhile. */
  async function longestWaitDuring(work) {
    let done = false;
    let longest = 0;
    const probe = (async () => {
      while (!done) {
        const started = performance.now();
        await db.query("SELECT 1");
        longest = Math.max(longest, performance.now() - started);
      }
    })();
    try {
      await work();
    } finally {
      done = true;
      await probe;
    }
    return longest;
  }

  const sizes = [];
  let copies = 1;
  for (const target of growth) {
    const started = performance.now();
    for (; copies < target; copies++) await copyCorpus(copies);
    const copySeconds = (performance.now() - started) / 1000;
    const indexStarted = performance.now();
    // As ingestion would build it (knowledge/chunk-store.ts, ensureVectorIndex): never on the embedded database.
    const indexed = !isEmbedded(db) && (await indexVectorsWhenLarge(db, dimension, kb.id));
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    // What the embedded database's housekeeping (platform/embedded-housekeeping.ts) does within half a minute of
    // so many inserts: the visibility map that index-only scans of the postings need, and the planner's statistics.
    for (const table of ["document", "chunk", "chunk_term"]) await db.query(`VACUUM (ANALYZE) ${table}`);
    const [{ chunks, postings, bytes }] = await db.query(
      `SELECT (SELECT count(*)::int FROM chunk WHERE knowledge_base_id = $1) AS chunks,
              (SELECT count(*)::int FROM chunk_term WHERE knowledge_base_id = $1) AS postings,
              pg_database_size(current_database())::float8 AS bytes`,
      [kb.id],
    );
    // First as a knowledge base that has just changed (postings read row by row), then once the packer has packed it.
    const unpacked = await measure();
    const packStarted = performance.now();
    const packWaitMs = await longestWaitDuring(() => services.postingsPacker.packAll());
    const packSeconds = (performance.now() - packStarted) / 1000;
    const figures = await measure();
    const postingsPerQuery = await postingsRead();
    const size = { copies: target, chunks, totalPostings: postings, databaseMB: Math.round(bytes / 1e6), vectorIndex: indexed ? "HNSW" : "exact scan", copySeconds, indexSeconds, packSeconds, packWaitMs, ...figures, postings: postingsPerQuery, unpacked };
    sizes.push(size);
    console.log(
      `${chunks} chunks (${target}× the corpus, ${postings} postings, database ${size.databaseMB} MB, vectors by ${size.vectorIndex}): ` +
        `service ${ms(figures.latencyMs)} (p99 ${figures.latencyMs.p99.toFixed(1)}); keyword ${ms(figures.keywordMs)}; vector ${ms(figures.vectorMs)}; ` +
        `postings a query reads p50 ${postingsPerQuery.p50}, p95 ${postingsPerQuery.p95}; ` +
        `not packed yet: service ${ms(unpacked.latencyMs)}, keyword ${ms(unpacked.keywordMs)} ` +
        `[${target > 1 ? `copied in ${copySeconds.toFixed(1)} s, ${indexed ? `index ${indexSeconds.toFixed(1)} s, ` : ""}` : ""}packed in ${packSeconds.toFixed(1)} s, another statement waiting at most ${packWaitMs.toFixed(0)} ms meanwhile]`,
    );
  }

  // Least-squares lines through the sizes measured: milliseconds per 100,000 chunks, and where they put a million.
  const fit = (key, pick) => {
    const xs = sizes.map((s) => s.chunks / 1e5);
    const ys = sizes.map((s) => pick(s[key]));
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    const slope = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i] - my), 0) / Math.max(1e-9, xs.reduce((sum, x) => sum + (x - mx) ** 2, 0));
    return { msPer100kChunks: slope, interceptMs: my - slope * mx, atMillionChunksMs: my + slope * (10 - mx) };
  };
  const lines = sizes.length > 1 ? {
    unpackedKeywordP50: fit("unpacked", (l) => l.keywordMs.p50),
    unpackedKeywordP95: fit("unpacked", (l) => l.keywordMs.p95),
    serviceP50: fit("latencyMs", (l) => l.p50),
    serviceP95: fit("latencyMs", (l) => l.p95),
    keywordP50: fit("keywordMs", (l) => l.p50),
    keywordP95: fit("keywordMs", (l) => l.p95),
    vectorP50: fit("vectorMs", (l) => l.p50),
  } : {};
  for (const [name, line] of Object.entries(lines)) {
    console.log(`${name}: +${line.msPer100kChunks.toFixed(1)} ms per 100,000 chunks (a straight line through the sizes puts 1,000,000 chunks at ${line.atMillionChunksMs.toFixed(0)} ms)`);
  }
  writeResult(`retrieval-growth-${beir.name}.json`, {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: os.loadavg(),
    corpus: beir.name,
    documents: kb.documentCount,
    queries: queries.length,
    embeddingDimension: dimension,
    sizes,
    lines,
  });
} finally {
  await bench.close();
}

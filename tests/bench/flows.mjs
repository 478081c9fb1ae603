// npm run bench:flows [-- <BEIR directory for the knowledge part, default ../shared/bench/squad2>]
//
// Agent flows, three figures (targets in brackets):
//
// 1. Time the engine adds per component [≤ 2 ms]: a chain Begin → N Template components is run by the engine's
//    runTurn in this process, and the turn's wall time less the components' own time (each node_finished's
//    elapsedMs) is divided by the number of components. The same chain is also run through the run service (a
//    job on the queue, every event numbered, published and stored), to show what a stored run adds.
// 2. Time to the first streamed token of Begin → Retrieval → Generate → Answer against the paced model server
//    (server/src/models/testing/paced-openai-server.ts, in a child process), compared with the same question to
//    a chat assistant over the same knowledge base and model [within 10 ms]. Both are asked through the REST
//    facade, streamed (`/api/v1/agents/{id}/completions` and `/api/v1/chats/{id}/completions`), at the same moment
//    (so that both meet the same load), which one is sent first alternating.
// 3. Under load [the same targets, and 200 concurrent runs with no lost event]: BENCH_RUNS (default 200) clients
//    in a child process (flow-client.mjs) each ask a streamed agent completion of Begin → Generate → Answer, and
//    ask again in the same session as soon as it ended, so that BENCH_RUNS runs are in flight all the time. While
//    they are, 1. and 2. are measured again. Every token of the paced model carries its index, so each client
//    checks its answer (every token once, in order) and its events (each component's node_finished in order, one
//    message_end after the message deltas, [DONE] last); a second subscriber in the server's process follows every
//    run of the load as a late watcher (the run service's event stream, as the GraphQL subscription does) and
//    checks it too: every event once, in order, from the first to the run's last. Whole-run time is set against
//    the model's own.
//
// Settings: BENCH_CHAIN (components in the chain, default 100), BENCH_CHAIN_TURNS (default 30),
// BENCH_TTFT_QUESTIONS (default 20), BENCH_RUNS (default 200), BENCH_LIMIT (documents of the knowledge part, default 50),
// BENCH_TOKENS_PER_SECOND (default 20), BENCH_ANSWER_TOKENS (default 20), BENCH_MODEL_FIRST_TOKEN_MS (default 50).
// Writes tests/bench/results/flows.json.
import { fork, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { streamCompletion } from "./flow-client.mjs";
import { ingestCorpus, loadBeir, machine, readJsonLines, root, startBenchServer, writeResult } from "./beir.mjs";

const require = createRequire(import.meta.url);
const dist = (file) => require(path.join(root, "server/dist", file));
// The build leaves testing helpers out: the paced server runs from its source, compiled as tests compile it.
const registerTs = path.join(root, "server/src/testing/register-ts.cjs");
require(registerTs);
const pacedModule = path.join(root, "server/src/models/testing/paced-openai-server.ts");
const { checkPacedText } = require(pacedModule);
const { runTurn } = dist("flows/engine/run-turn.js");
const { initialState } = dist("flows/engine/state.js");
const { flowLimits } = dist("flows/engine/limits.js");

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const CHAIN = env("BENCH_CHAIN", 100);
const CHAIN_TURNS = env("BENCH_CHAIN_TURNS", 30);
const TTFT_QUESTIONS = env("BENCH_TTFT_QUESTIONS", 20);
const RUNS = env("BENCH_RUNS", 200);
const TOKENS_PER_SECOND = env("BENCH_TOKENS_PER_SECOND", 20);
const ANSWER_TOKENS = env("BENCH_ANSWER_TOKENS", 20);
const MODEL_FIRST_TOKEN_MS = env("BENCH_MODEL_FIRST_TOKEN_MS", 50);
const corpusDirectory = process.argv[2] ?? path.join(root, "../shared/bench/squad2");

const percentile = (values, p) => (values.length === 0 ? null : [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]);
const round = (n, digits = 2) => (n === null || n === undefined ? null : Number(n.toFixed(digits)));
const summary = (values) => ({ p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), max: round(values.length ? Math.max(...values) : null), n: values.length });

/** The paced model server in its own process, so that its timers do not wait on Cairn's event loop. */
async function startModelServer() {
  const child = spawn(
    process.execPath,
    ["-r", registerTs, pacedModule, "--tokens-per-second", String(TOKENS_PER_SECOND), "--answer-tokens", String(ANSWER_TOKENS), "--first-token-ms", String(MODEL_FIRST_TOKEN_MS)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the paced model server exited (${code})`)));
    readline.createInterface({ input: child.stdout }).once("line", resolve);
  });
  return {
    url: JSON.parse(line).url,
    close: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM")))),
  };
}

/** A v0.14 DSL from components `[id, component_name, params]` joined in a line, Begin first. */
function chainDsl(components) {
  const dsl = { components: {} };
  components.forEach(([id, name, params], i) => {
    dsl.components[id] = {
      obj: { component_name: name, params },
      upstream: i > 0 ? [components[i - 1][0]] : [],
      downstream: i < components.length - 1 ? [components[i + 1][0]] : [],
    };
  });
  return dsl;
}

const model = await startModelServer();
// The server's own configuration: flow turns run in the interactive lane of the job queue (INTERACTIVE_JOB_CONCURRENCY).
const bench = await startBenchServer();
const { services, principal, config } = bench;
const { token: key } = await services.apiTokens.create(principal);
const { url } = bench;
const rest = async (method, route, body) => {
  const response = await fetch(`${url}${route}`, { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json();
  if (json.code !== 0) throw new Error(`${method} ${route}: ${JSON.stringify(json)}`);
  return json.data;
};
/** Creates an agent through the REST facade and finds its id by title, as RAGFlow's clients do. */
async function createAgent(title, dsl) {
  await rest("POST", "/api/v1/agents", { title, dsl });
  return (await rest("GET", `/api/v1/agents?title=${encodeURIComponent(title)}`))[0].id;
}

/** A load child: `jobs` clients asking again and again until `stop()`; `inflight` resolves once every client has asked. */
function startLoad(jobs) {
  const child = fork(path.join(path.dirname(new URL(import.meta.url).pathname), "flow-client.mjs"), ["--child"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let inflight;
  const results = new Promise((resolve, reject) => {
    inflight = new Promise((resolveInflight) => child.on("message", (message) => (message.type === "inflight" ? resolveInflight() : message.type === "results" && resolve(message.results))));
    child.once("exit", (code) => (code === 0 ? undefined : reject(new Error(`the clients' process exited (${code})`))));
  });
  child.send({ url, key, jobs });
  return { inflight, stop: () => (child.send({ type: "stop" }), results) };
}

/**
 * The second subscriber of every run of an agent: a watcher in this process that finds each run as it is queued or
 * running (a late subscriber: it reads what was stored, then follows live) and keeps what its event stream gave.
 */
function watchRuns(agentId) {
  const watched = new Map();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const open = await services.platform.db.query(`SELECT id FROM flow_run WHERE flow_id = $1 AND status IN ('queued', 'running')`, [agentId]);
      for (const { id } of open) {
        if (watched.has(id)) continue;
        const seen = { seqs: [], types: [], text: "", error: null };
        seen.done = (async () => {
          try {
            for await (const event of await services.flowRuns.events(principal, id)) {
              seen.seqs.push(event.seq);
              seen.types.push(event.type);
              if (event.type === "message") seen.text += event.delta;
            }
          } catch (error) {
            seen.error = String(error?.message ?? error);
          }
        })();
        watched.set(id, seen);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    await Promise.all([...watched.values()].map((seen) => seen.done));
    return watched;
  };
}

const expectedEvents = ["node_finished:begin", "node_finished:Generate:0", "message", "node_finished:Answer:0", "message_end"];
/** A REST client's completion: every token once and in order, every event in order, [DONE] last and alone. */
function checkCompletion(r) {
  const check = checkPacedText(r.text, ANSWER_TOKENS);
  // The message deltas may come before or after Generate's node_finished (it streams as it runs); the rest is in order.
  const events = r.events.filter((e) => e !== "message");
  const wanted = expectedEvents.filter((e) => e !== "message");
  const inOrder = events.length === wanted.length && events.every((e, i) => e === wanted[i]) && r.events.indexOf("message") < r.events.indexOf("message_end");
  return { check, inOrder, ok: check.ok && inOrder && r.done && r.afterDone === 0 && !r.error };
}
/** A watcher's run: seq 1, 2, 3… with none missing or repeated, the run's own events in order, the whole answer. */
function checkWatched(seen) {
  const contiguous = seen.seqs.every((seq, i) => seq === i + 1);
  const types = seen.types.filter((t) => t !== "message" && t !== "node_started");
  const wanted = ["run_started", "node_finished", "node_finished", "node_finished", "message_end", "run_finished"];
  const inOrder = types.length === wanted.length && types.every((t, i) => t === wanted[i]);
  return contiguous && inOrder && checkPacedText(seen.text, ANSWER_TOKENS).ok && !seen.error;
}

try {
  const entry = await services.models.addEntry(principal, {
    provider: "OpenAI-API-Compatible",
    modelName: "paced-chat",
    modelType: "chat",
    credentials: { baseUrl: model.url, apiKey: "" },
  });
  const chatModel = `${entry.modelName}@OpenAI-API-Compatible`;

  // ---- 1. the engine's time per component --------------------------------------------------------
  const chain = chainDsl([["begin", "Begin", {}], ...Array.from({ length: CHAIN }, (_, i) => [`Template:${i}`, "Template", { content: `step ${i}: {sys.query}` }])]);
  const noPorts = {
    tenantId: principal.tenantId,
    principal,
    language: "en",
    chatModel: () => Promise.reject(new Error("no model in this part")),
    retrieve: () => Promise.reject(new Error("no retrieval in this part")),
    fetch: () => Promise.reject(new Error("no fetch in this part")),
  };
  const limits = { ...flowLimits(config), maxStepsPerTurn: CHAIN * 10 };
  async function engineTurns(turns) {
    const rows = [];
    for (let turn = 0; turn < turns + 3; turn++) {
      let own = 0;
      let components = 0;
      const started = performance.now();
      const result = await runTurn(chain, initialState(chain, { userId: "bench" }), { message: `question ${turn}` }, {
        ports: noPorts,
        limits,
        signal: new AbortController().signal,
        emit: (event) => {
          if (event.type === "node_finished") {
            own += event.elapsedMs;
            components++;
          }
        },
      });
      const wall = performance.now() - started;
      if (result.status === "failed") throw new Error(`the chain failed: ${result.error}`);
      if (turn >= 3) rows.push({ wall, own, components }); // the first turns warm the JIT up
    }
    return {
      chain: `Begin → ${CHAIN} Template`,
      componentsPerTurn: rows[0].components,
      turnMs: summary(rows.map((r) => r.wall)),
      componentsOwnMs: summary(rows.map((r) => r.own)),
      addedPerComponentMs: summary(rows.map((r) => (r.wall - r.own) / r.components)),
    };
  }

  // The same as stored runs (a job on the queue, every event numbered, published and stored): the slope between a
  // chain of one Template and the long chain, so that what a run costs once (the job, the last write) is left out.
  // The two chains of a pair run at the same moment, so that under load both meet the same moment of it.
  async function storedTurn(agentId, message) {
    const started = performance.now();
    const { run } = await services.flowRuns.start(principal, agentId, { message });
    const finished = await services.flowRuns.finished(principal, run.id);
    const wall = performance.now() - started;
    if (finished.status === "failed") throw new Error(`the stored chain failed: ${finished.error}`);
    const steps = (await services.flowRuns.stepsOf([run.id])).get(run.id);
    return { wall, beyondOwn: wall - steps.reduce((sum, step) => sum + step.elapsedMs, 0) };
  }
  const shortChain = chainDsl([["begin", "Begin", {}], ["Template:0", "Template", { content: "step 0: {sys.query}" }]]);
  const longAgent = await createAgent("bench chain", chain);
  const shortAgent = await createAgent("bench short chain", shortChain);
  async function storedRun(turns) {
    const pairs = [];
    for (let turn = 0; turn < turns + 2; turn++) {
      const [long, short] = await Promise.all([storedTurn(longAgent, `stored ${turn}`), storedTurn(shortAgent, `stored ${turn}`)]);
      if (turn >= 2) pairs.push({ long, short }); // the first pairs warm up
    }
    return {
      pairs: pairs.length,
      longChainMs: round(percentile(pairs.map((p) => p.long.wall), 50)),
      shortChainMs: round(percentile(pairs.map((p) => p.short.wall), 50)),
      addedPerComponentMs: round(percentile(pairs.map((p) => (p.long.beyondOwn - p.short.beyondOwn) / (CHAIN - 1)), 50)),
    };
  }
  const printEngine = (engine, when) =>
    console.log(
      `engine${when}: ${engine.chain}, ${engine.componentsPerTurn} components a turn: turn p50 ${engine.turnMs.p50} ms, the components' own p50 ${engine.componentsOwnMs.p50} ms → ` +
        `the engine adds p50 ${engine.addedPerComponentMs.p50} ms, p95 ${engine.addedPerComponentMs.p95} ms per component (target ≤ 2 ms)\n` +
        `  as stored runs: Begin → ${CHAIN} Template p50 ${engine.storedRun.longChainMs} ms, Begin → 1 Template p50 ${engine.storedRun.shortChainMs} ms → ` +
        `${engine.storedRun.addedPerComponentMs} ms per component beyond the engine's own (events numbered, published, stored with the steps)`,
    );
  const engine = await engineTurns(CHAIN_TURNS);
  engine.storedRun = await storedRun(Math.min(CHAIN_TURNS, 10));
  printEngine(engine, "");

  // ---- 2. first token: a flow against a chat assistant -------------------------------------------
  let askFirstTokens = null;
  let corpusInfo = null;
  if (fs.existsSync(path.join(corpusDirectory, "corpus.jsonl"))) {
    const beir = loadBeir(corpusDirectory);
    const corpus = beir.corpus.slice(0, env("BENCH_LIMIT", 50));
    const { kb } = await ingestCorpus({ services, principal }, `${beir.name}-flows`, corpus);
    const ingested = new Set(corpus.map((d) => d._id));
    const qaFile = path.join(corpusDirectory, "qa.jsonl");
    const candidates = fs.existsSync(qaFile)
      ? readJsonLines(qaFile).filter((q) => !q.is_impossible && ingested.has(q.context_id)).map((q) => q.question)
      : beir.queries.filter((q) => [...(beir.qrels.get(q._id)?.keys() ?? [])].some((id) => ingested.has(id))).map((q) => q.text);
    const questions = [...new Set(candidates)].slice(0, TTFT_QUESTIONS + 2);
    corpusInfo = { corpus: beir.name, documents: kb.documentCount, chunks: kb.chunkCount };

    const assistant = await services.assistants.create(principal, { name: "bench flows assistant", chatModel, knowledgeBaseIds: [kb.id] });
    const ragFlow = chainDsl([
      ["begin", "Begin", {}],
      ["Retrieval:0", "Retrieval", { kb_ids: [kb.id] }],
      ["Generate:0", "Generate", { llm_id: chatModel, prompt: "Answer the question from the knowledge base.\n{input}", cite: true }],
      ["Answer:0", "Answer", {}],
    ]);
    const agentId = await createAgent("bench retrieval flow", ragFlow);
    askFirstTokens = async () => {
      const rows = [];
      for (let i = 0; i < questions.length; i++) {
        const question = questions[i];
        const chatSession = (await rest("POST", `/api/v1/chats/${assistant.id}/sessions`, { name: `q${i}` })).id;
        const agentSession = (await rest("POST", `/api/v1/agents/${agentId}/sessions`, {})).id;
        // Both asked at the same moment, so that they meet the same load (under load, asked one after the other, each
        // would meet a different moment of it: hundreds of ms apart); which is sent first alternates, so that neither
        // always gets ahead.
        const ask = {
          chat: () => streamCompletion({ url, key, path: `/api/v1/chats/${assistant.id}/completions`, body: { question, session_id: chatSession } }),
          flow: () => streamCompletion({ url, key, path: `/api/v1/agents/${agentId}/completions`, body: { question, session_id: agentSession } }),
        };
        const order = i % 2 === 0 ? ["chat", "flow"] : ["flow", "chat"];
        const answers = await Promise.all(order.map((which) => ask[which]()));
        const result = Object.fromEntries(order.map((which, j) => [which, answers[j]]));
        if (process.env.BENCH_DEBUG) console.log(i, JSON.stringify(result).slice(0, 600));
        if (i < 2) continue; // warm-up
        rows.push({ chat: result.chat.firstText, flow: result.flow.firstText, chatOk: checkPacedText(result.chat.text, ANSWER_TOKENS).ok, flowOk: checkPacedText(result.flow.text, ANSWER_TOKENS).ok });
      }
      const both = rows.filter((r) => r.chat !== null && r.flow !== null);
      return {
        ...corpusInfo,
        questions: rows.length,
        completeAnswers: { chat: rows.filter((r) => r.chatOk).length, flow: rows.filter((r) => r.flowOk).length },
        chatFirstTokenMs: summary(both.map((r) => r.chat)),
        flowFirstTokenMs: summary(both.map((r) => r.flow)),
        flowMinusChatMs: summary(both.map((r) => r.flow - r.chat)),
      };
    };
  }
  const printFirstToken = (firstToken, when) =>
    console.log(
      firstToken === null
        ? `first token${when}: skipped (no corpus at ${corpusDirectory})`
        : `first token${when} over ${firstToken.chunks} chunks, ${firstToken.questions} questions through REST SSE: chat assistant p50 ${firstToken.chatFirstTokenMs.p50} ms, ` +
            `Begin → Retrieval → Generate → Answer p50 ${firstToken.flowFirstTokenMs.p50} ms → the flow is p50 ${firstToken.flowMinusChatMs.p50} ms, p95 ${firstToken.flowMinusChatMs.p95} ms behind (target ≤ 10 ms); ` +
            `complete answers: chat ${firstToken.completeAnswers.chat}, flow ${firstToken.completeAnswers.flow}`,
    );
  const firstToken = askFirstTokens ? await askFirstTokens() : null;
  printFirstToken(firstToken, "");

  // ---- 3. under load: RUNS runs in flight all the time ---------------------------------------------
  const talkFlow = chainDsl([
    ["begin", "Begin", {}],
    ["Generate:0", "Generate", { llm_id: chatModel, prompt: "You are a helpful assistant." }],
    ["Answer:0", "Answer", {}],
  ]);
  const talkAgent = await createAgent("bench concurrent flow", talkFlow);
  const jobs = [];
  for (let i = 0; i < RUNS; i++) {
    const sessionId = (await rest("POST", `/api/v1/agents/${talkAgent}/sessions`, {})).id;
    jobs.push({ path: `/api/v1/agents/${talkAgent}/completions`, body: { question: `run ${i}: tell me everything`, session_id: sessionId } });
  }
  const stopWatching = watchRuns(talkAgent);
  const loadStarted = performance.now();
  const load = startLoad(jobs);
  await load.inflight;
  const underLoad = await engineTurns(Math.min(CHAIN_TURNS, 10));
  underLoad.storedRun = await storedRun(Math.min(CHAIN_TURNS, 10));
  printEngine(underLoad, ` with ${RUNS} runs in flight`);
  const firstTokenUnderLoad = askFirstTokens ? await askFirstTokens() : null;
  printFirstToken(firstTokenUnderLoad, ` with ${RUNS} runs in flight`);
  const results = await load.stop();
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const watched = await stopWatching();

  let complete = 0;
  let lostTokens = 0;
  let misplacedTokens = 0;
  let eventsWrong = 0;
  const failures = [];
  for (const r of results) {
    const { check, inOrder, ok } = checkCompletion(r);
    lostTokens += check.missing;
    misplacedTokens += check.misplaced;
    if (!inOrder) eventsWrong++;
    if (ok) complete++;
    else if (failures.length < 5) failures.push({ error: r.error, events: r.events.join(","), missing: check.missing, misplaced: check.misplaced, done: r.done });
  }
  const [{ count: runsOfLoad }] = await services.platform.db.query(`SELECT count(*)::int AS count FROM flow_run WHERE flow_id = $1`, [talkAgent]);
  const watchedComplete = [...watched.values()].filter(checkWatched).length;
  const modelAnswerMs = (ANSWER_TOKENS - 1) * (1000 / TOKENS_PER_SECOND) + MODEL_FIRST_TOKEN_MS;
  const wholeRunMs = summary(results.map((r) => r.durationMs));
  const concurrency = {
    clients: RUNS,
    runs: results.length,
    loadSeconds: round(loadSeconds, 1),
    complete,
    lostTokens,
    misplacedTokens,
    runsWithEventsMissingOrOutOfOrder: eventsWrong,
    secondSubscriber: { runsStored: runsOfLoad, watched: watched.size, complete: watchedComplete },
    firstTokenMs: summary(results.filter((r) => r.firstText !== null).map((r) => r.firstText)),
    modelFirstTokenMs: MODEL_FIRST_TOKEN_MS,
    wholeRunMs,
    modelAnswerMs,
    wholeRunOverModel: { p50: round(wholeRunMs.p50 / modelAnswerMs), p95: round(wholeRunMs.p95 / modelAnswerMs) },
    failures,
  };
  console.log(
    `${RUNS} clients asking again and again for ${concurrency.loadSeconds} s (Begin → Generate → Answer, streamed REST completions from another process; ${ANSWER_TOKENS} tokens at ${TOKENS_PER_SECOND}/s each): ` +
      `${results.length} runs, ${complete} complete with every event in order, ${lostTokens} tokens lost, ${misplacedTokens} repeated or out of order, ${eventsWrong} runs with events missing or out of order; ` +
      `the second subscriber followed ${watched.size} of the ${runsOfLoad} runs, ${watchedComplete} complete and in order; ` +
      `first token p50 ${concurrency.firstTokenMs.p50} ms, p95 ${concurrency.firstTokenMs.p95} ms (the model's own ${MODEL_FIRST_TOKEN_MS} ms); ` +
      `whole run p50 ${wholeRunMs.p50} ms, p95 ${wholeRunMs.p95} ms (the model alone: ${modelAnswerMs} ms; ×${concurrency.wholeRunOverModel.p50} p50, ×${concurrency.wholeRunOverModel.p95} p95)`,
  );
  if (failures.length > 0) console.log(`  failures: ${JSON.stringify(failures)}`);

  writeResult("flows.json", {
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: os.loadavg().map((n) => round(n, 2)),
    interactiveJobConcurrency: config.interactiveJobConcurrency,
    model: { tokensPerSecond: TOKENS_PER_SECOND, answerTokens: ANSWER_TOKENS, firstTokenMs: MODEL_FIRST_TOKEN_MS, process: "child process, OpenAI-API-Compatible provider" },
    targets: { addedPerComponentMs: 2, firstTokenBehindChatMs: 10, concurrentRunsWithoutLoss: 200 },
    alone: { engine, firstToken },
    underLoad: { runsInFlight: RUNS, engine: underLoad, firstToken: firstTokenUnderLoad },
    concurrency,
  });
} finally {
  await bench.close();
  await model.close();
}

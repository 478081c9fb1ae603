// npm run bench:answers -- <QA directory> (../shared/bench/squad2) — answer quality of the built-in chat model
// through the real chat service: the corpus is ingested into a knowledge base by the real pipeline (embedded
// mode, built-in models), an assistant with the product's defaults (default system prompt, top_n 6, similarity
// threshold 0.2, vector weight 0.3, the tenant's default chat model = the built-in extractive one) is created
// over it, and every question of qa.jsonl is asked in a conversation of its own through ConversationService
// (the path of the chat page and the REST API: retrieval through RetrievalService, prompt assembly, citations).
//
// - answerable questions (is_impossible false): a hit when a gold answer, normalised as SQuAD's evaluation
//   does (lower case, no punctuation, no articles, single spaces), occurs in the answer or in a chunk it cites;
// - unanswerable questions (is_impossible true; SQuAD 2.0 keeps them only in qa.jsonl: queries.jsonl and
//   qrels.tsv list the answerable ones): "not found" when the answer says the prompt's "not found" sentence,
//   or is the assistant's empty response (nothing retrieved above the threshold, no model call).
// Prints the two rates, the time to the first token and to the whole answer (p50/p95) and the retrieval time
// the pipeline notes; writes tests/bench/results/answers-<set>.json. BENCH_QUERIES=n asks the first n
// questions, BENCH_CONCURRENCY=n (default 8) keeps that many conversations answering at once.
import path from "node:path";
import { ingestCorpus, loadBeir, machine, readJsonLines, startBenchServer, writeResult } from "./beir.mjs";

const directory = process.argv[2];
const beir = loadBeir(directory);
const qas = readJsonLines(path.join(directory, "qa.jsonl")).slice(0, Number(process.env.BENCH_QUERIES ?? Infinity));
const concurrency = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 8));
const language = /[\u4e00-\u9fff]/.test(beir.corpus.slice(0, 20).map((d) => d.text).join("")) ? "Chinese" : "English";

/** SQuAD's normalize_answer; for Chinese text, spaces and punctuation go and nothing else. */
function normalise(text) {
  const lower = String(text).toLowerCase().normalize("NFKC");
  const bare = lower.replace(/[\p{P}\p{S}]/gu, " ");
  return (language === "Chinese" ? bare.replace(/\s+/g, "") : bare.replace(/\b(a|an|the)\b/g, " ").replace(/\s+/g, " ")).trim();
}

const percentile = (values, p) => (values.length === 0 ? null : [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]);
const round = (n, digits = 1) => (n === null ? null : Number(n.toFixed(digits)));
const NOT_FOUND = /the answer you are looking for is not found in the/i;

const bench = await startBenchServer();
try {
  const { kb, corpusIdOf, seconds } = await ingestCorpus(bench, beir.name, beir.corpus, language);
  console.log(`${beir.name}: ${kb.documentCount} documents, ${kb.chunkCount} chunks ingested in ${seconds.total.toFixed(1)} s; ${qas.length} questions, ${concurrency} at a time`);
  const { services, principal } = bench;
  const assistant = await services.assistants.create(principal, { name: `bench ${beir.name}`, knowledgeBaseIds: [kb.id] });
  const actor = { principal };
  console.log(
    `assistant: chat model ${assistant.llmId || "(tenant default)"}, top_n ${assistant.topN}, similarity threshold ${assistant.similarityThreshold}, vector weight ${assistant.vectorSimilarityWeight}`,
  );

  const counts = { answerable: 0, hits: 0, answered: 0, goldRetrieved: 0, unanswerable: 0, notFound: 0, emptyResponse: 0, failed: 0 };
  const firstToken = [];
  const whole = [];
  const retrievalMs = [];
  const examples = { missed: [], answeredUnanswerable: [] };

  async function ask(qa) {
    const conversation = await services.conversations.create(actor, assistant.id, { name: qa.id });
    const started = performance.now();
    let first = null;
    const asked = await services.conversations.ask(actor, conversation.id, { question: qa.question }, (event) => {
      if (first === null && (event.delta || event.content)) first = performance.now() - started;
    });
    await asked.finished;
    whole.push(performance.now() - started);
    if (first !== null) firstToken.push(first);
    const answer = await services.conversations.message(actor, asked.answer.id);
    if (answer.status !== "done") {
      counts.failed++;
      return;
    }
    const noted = /-\s*Retrieval:\s*([\d.]+)ms/.exec(answer.prompt ?? "");
    if (noted) retrievalMs.push(Number(noted[1]));
    const content = answer.content ?? "";
    const chunks = answer.reference?.chunks ?? [];
    const notFound = NOT_FOUND.test(content) || content.trim() === assistant.emptyResponse.trim();
    if (qa.is_impossible) {
      counts.unanswerable++;
      if (notFound) counts.notFound++;
      else if (examples.answeredUnanswerable.length < 10) examples.answeredUnanswerable.push({ question: qa.question, answer: content.slice(0, 300) });
      if (content.trim() === assistant.emptyResponse.trim()) counts.emptyResponse++;
      return;
    }
    counts.answerable++;
    if (!notFound) counts.answered++;
    if (chunks.some((c) => corpusIdOf.get(c.document_id) === qa.context_id)) counts.goldRetrieved++;
    const cited = [...content.matchAll(/\[ID:(\d+)\]/g)].map((m) => chunks[Number(m[1])]?.content ?? "");
    const texts = [content.replace(/\[ID:\d+\]/g, " "), ...cited].map(normalise);
    const gold = qa.answers.map(normalise).filter((a) => a !== "");
    if (gold.some((a) => texts.some((t) => t.includes(a)))) counts.hits++;
    else if (examples.missed.length < 10) examples.missed.push({ question: qa.question, gold: qa.answers[0], answer: content.slice(0, 300) });
  }

  const started = performance.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < qas.length) {
        const qa = qas[next++];
        await ask(qa);
        if (++done % 500 === 0) console.log(`  ${done}/${qas.length} questions (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;

  const share = (a, b) => (b === 0 ? null : a / b);
  const pct = (x) => (x === null ? "n/a" : `${(100 * x).toFixed(1)} %`);
  const result = {
    date: new Date().toISOString(),
    machine: machine(),
    corpus: beir.name,
    documents: kb.documentCount,
    chunks: kb.chunkCount,
    ingestSeconds: seconds.total,
    questions: qas.length,
    concurrency,
    through: "ConversationService.ask (retrieval via RetrievalService, default assistant prompt, built-in extractive chat model)",
    assistant: { chatModel: assistant.llmId || "tenant default", topN: assistant.topN, similarityThreshold: assistant.similarityThreshold, vectorSimilarityWeight: assistant.vectorSimilarityWeight },
    answerable: {
      questions: counts.answerable,
      hitRate: share(counts.hits, counts.answerable),
      answeredRate: share(counts.answered, counts.answerable),
      goldParagraphRetrievedRate: share(counts.goldRetrieved, counts.answerable),
    },
    unanswerable: { questions: counts.unanswerable, notFoundRate: share(counts.notFound, counts.unanswerable), emptyResponses: counts.emptyResponse },
    failed: counts.failed,
    latencyMs: {
      firstToken: { p50: round(percentile(firstToken, 50)), p95: round(percentile(firstToken, 95)) },
      wholeAnswer: { p50: round(percentile(whole, 50)), p95: round(percentile(whole, 95)) },
      retrieval: { p50: round(percentile(retrievalMs, 50)), p95: round(percentile(retrievalMs, 95)) },
    },
    seconds: round(elapsed),
    examples,
  };
  console.log(`answerable (${counts.answerable}): gold answer in the answer or a cited chunk ${pct(result.answerable.hitRate)} (answered ${pct(result.answerable.answeredRate)}, gold paragraph retrieved ${pct(result.answerable.goldParagraphRetrievedRate)})`);
  console.log(`unanswerable (${counts.unanswerable}): "not found" ${pct(result.unanswerable.notFoundRate)} (${counts.emptyResponse} of them the empty response: nothing retrieved)`);
  console.log(
    `latency per question (${concurrency} at a time): first token p50 ${result.latencyMs.firstToken.p50} ms, p95 ${result.latencyMs.firstToken.p95} ms; whole answer p50 ${result.latencyMs.wholeAnswer.p50} ms, p95 ${result.latencyMs.wholeAnswer.p95} ms (the built-in model paces its words); retrieval p50 ${result.latencyMs.retrieval.p50} ms, p95 ${result.latencyMs.retrieval.p95} ms`,
  );
  if (counts.failed > 0) console.log(`${counts.failed} answers failed`);
  writeResult(`answers-${beir.name}.json`, result);
} finally {
  await bench.close();
}

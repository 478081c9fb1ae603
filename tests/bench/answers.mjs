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
//
// Then the multi-turn set (multi-turn.mjs): BENCH_CONVERSATIONS (default 200) conversations of 4–6
// answerable questions generated from qa.jsonl with a fixed seed — questions on unrelated articles, and
// follow-ups that name their article's subject only by a pronoun after a question that names it. Reported:
// unrelated questions later in a conversation (hit rate, against the same questions asked alone, and the
// share retrieved exactly as alone: the same chunks), and follow-ups (hit rate in the conversation, against
// the same pronoun question asked alone).
import path from "node:path";
import { ingestCorpus, loadBeir, machine, readJsonLines, startBenchServer, writeResult } from "./beir.mjs";
import { multiTurnConversations } from "./multi-turn.mjs";

const directory = process.argv[2];
const beir = loadBeir(directory);
const qas = readJsonLines(path.join(directory, "qa.jsonl")).slice(0, Number(process.env.BENCH_QUERIES ?? Infinity));
const concurrency = Math.max(1, Number(process.env.BENCH_CONCURRENCY ?? 8));
const conversationCount = Math.max(0, Number(process.env.BENCH_CONVERSATIONS ?? 200));
const language = /[\u4e00-\u9fff]/.test(beir.corpus.slice(0, 20).map((d) => d.text).join("")) ? "Chinese" : "English";

/** SQuAD's normalize_answer; for Chinese text, spaces and punctuation go and nothing else. */
function normalise(text) {
  const lower = String(text).toLowerCase().normalize("NFKC");
  const bare = lower.replace(/[\p{P}\p{S}]/gu, " ");
  return (language === "Chinese" ? bare.replace(/\s+/g, "") : bare.replace(/\b(a|an|the)\b/g, " ").replace(/\s+/g, " ")).trim();
}

const percentile = (values, p) => (values.length === 0 ? null : [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]);
const round = (n, digits = 1) => (n === null ? null : Number(n.toFixed(digits)));
const NOT_FOUND = /the answer you are looking for is not found in the|知识库中未找到您要的答案/i;

/** Runs `work` on each item, `concurrency` at a time. */
async function inParallel(items, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

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

  /** Asks one question in a conversation (a new one unless given) and scores the answer; null when it failed. */
  async function askIn(conversationId, qa, question = qa.question) {
    const started = performance.now();
    let first = null;
    const asked = await services.conversations.ask(actor, conversationId, { question }, (event) => {
      if (first === null && (event.delta || event.content)) first = performance.now() - started;
    });
    await asked.finished;
    const answer = await services.conversations.message(actor, asked.answer.id);
    if (answer.status !== "done") return null;
    const content = answer.content ?? "";
    const chunks = answer.reference?.chunks ?? [];
    const cited = [...content.matchAll(/\[ID:(\d+)\]/g)].map((m) => chunks[Number(m[1])]?.content ?? "");
    const texts = [content.replace(/\[ID:\d+\]/g, " "), ...cited].map(normalise);
    const gold = qa.answers.map(normalise).filter((a) => a !== "");
    return {
      answer,
      content,
      chunks,
      elapsed: performance.now() - started,
      first,
      notFound: NOT_FOUND.test(content) || content.trim() === assistant.emptyResponse.trim(),
      hit: gold.some((a) => texts.some((t) => t.includes(a))),
      chunkIds: chunks.map((c) => c.id).join(" "),
    };
  }
  const newConversation = async (name) => (await services.conversations.create(actor, assistant.id, { name })).id;
  /** Each question's result asked alone, for the multi-turn comparison. */
  const alone = new Map();

  async function ask(qa) {
    const scored = await askIn(await newConversation(qa.id), qa);
    if (!scored) {
      counts.failed++;
      return;
    }
    alone.set(qa.id, scored);
    whole.push(scored.elapsed);
    if (scored.first !== null) firstToken.push(scored.first);
    const { answer, content, chunks, notFound } = scored;
    const noted = /-\s*Retrieval:\s*([\d.]+)ms/.exec(answer.prompt ?? "");
    if (noted) retrievalMs.push(Number(noted[1]));
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
    if (scored.hit) counts.hits++;
    else if (examples.missed.length < 10) examples.missed.push({ question: qa.question, gold: qa.answers[0], answer: content.slice(0, 300) });
  }

  const started = performance.now();
  let done = 0;
  await inParallel(qas, async (qa) => {
    await ask(qa);
    if (++done % 500 === 0) console.log(`  ${done}/${qas.length} questions (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  });
  const elapsed = (performance.now() - started) / 1000;

  // The multi-turn set: the same assistant (multi-turn optimisation on, its default).
  const titleOf = new Map(beir.corpus.map((d) => [d._id, d.title ?? ""]));
  const conversations = multiTurnConversations(qas, titleOf, conversationCount);
  const multi = { conversations: conversations.length, turns: 0, unrelated: 0, unrelatedHits: 0, unrelatedAloneHits: 0, unrelatedAsAlone: 0, followUps: 0, followUpHits: 0, followUpAloneHits: 0, failed: 0 };
  const multiExamples = { unrelatedChanged: [], followUpMissed: [] };
  const multiStarted = performance.now();
  await inParallel(conversations, async (turns) => {
    const id = await newConversation("multi-turn");
    for (const [position, turn] of turns.entries()) {
      const scored = await askIn(id, turn.qa, turn.question);
      multi.turns++;
      if (!scored) {
        multi.failed++;
        continue;
      }
      if (turn.kind === "follow-up") {
        multi.followUps++;
        if (scored.hit) multi.followUpHits++;
        else if (multiExamples.followUpMissed.length < 5) multiExamples.followUpMissed.push({ before: turns[position - 1].question, question: turn.question, gold: turn.qa.answers[0], answer: scored.content.slice(0, 200) });
        const single = await askIn(await newConversation("follow-up alone"), turn.qa, turn.question);
        if (single?.hit) multi.followUpAloneHits++;
      } else if (position > 0) {
        const single = alone.get(turn.qa.id);
        if (!single) continue;
        multi.unrelated++;
        if (scored.hit) multi.unrelatedHits++;
        if (single.hit) multi.unrelatedAloneHits++;
        if (scored.chunkIds === single.chunkIds) multi.unrelatedAsAlone++;
        else if (multiExamples.unrelatedChanged.length < 5) multiExamples.unrelatedChanged.push({ before: turns[position - 1].question, question: turn.question });
      }
    }
  });

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
    multiTurn: {
      conversations: multi.conversations,
      turns: multi.turns,
      failed: multi.failed,
      seconds: round((performance.now() - multiStarted) / 1000),
      unrelated: { questions: multi.unrelated, hitRate: share(multi.unrelatedHits, multi.unrelated), aloneHitRate: share(multi.unrelatedAloneHits, multi.unrelated), retrievedAsAloneRate: share(multi.unrelatedAsAlone, multi.unrelated) },
      followUps: { questions: multi.followUps, hitRate: share(multi.followUpHits, multi.followUps), aloneHitRate: share(multi.followUpAloneHits, multi.followUps) },
      examples: multiExamples,
    },
  };
  console.log(`answerable (${counts.answerable}): gold answer in the answer or a cited chunk ${pct(result.answerable.hitRate)} (answered ${pct(result.answerable.answeredRate)}, gold paragraph retrieved ${pct(result.answerable.goldParagraphRetrievedRate)})`);
  console.log(`unanswerable (${counts.unanswerable}): "not found" ${pct(result.unanswerable.notFoundRate)} (${counts.emptyResponse} of them the empty response: nothing retrieved)`);
  console.log(
    `latency per question (${concurrency} at a time): first token p50 ${result.latencyMs.firstToken.p50} ms, p95 ${result.latencyMs.firstToken.p95} ms; whole answer p50 ${result.latencyMs.wholeAnswer.p50} ms, p95 ${result.latencyMs.wholeAnswer.p95} ms (the built-in model paces its words); retrieval p50 ${result.latencyMs.retrieval.p50} ms, p95 ${result.latencyMs.retrieval.p95} ms`,
  );
  if (counts.failed > 0) console.log(`${counts.failed} answers failed`);
  const { unrelated, followUps } = result.multiTurn;
  console.log(`multi-turn (${multi.conversations} conversations, ${multi.turns} turns${multi.failed ? `, ${multi.failed} failed` : ""}):`);
  console.log(`  unrelated questions later in a conversation (${unrelated.questions}): hit ${pct(unrelated.hitRate)} (asked alone ${pct(unrelated.aloneHitRate)}); retrieved exactly as alone ${pct(unrelated.retrievedAsAloneRate)}`);
  console.log(`  follow-ups naming their subject by a pronoun (${followUps.questions}): hit ${pct(followUps.hitRate)} (the same question asked alone ${pct(followUps.aloneHitRate)})`);
  writeResult(`answers-${beir.name}.json`, result);
} finally {
  await bench.close();
}

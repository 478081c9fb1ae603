/**
 * Quick evaluation of the extractive chat model on SQuAD 2.0 (../shared/bench/squad2, the default) or
 * another set with a qa.jsonl (cmrc2018), in memory:
 * each question is asked with the top 6 paragraphs of a plain BM25 over the corpus as its knowledge
 * (RAGFlow's default top_n, formatted as RAGFlow's kb_prompt does), then
 * - answerable questions: success when a gold answer occurs in the answer or in a cited passage;
 * - unanswerable questions: success when the answer is the "not found" sentence.
 *
 *   node -r server/src/testing/register-ts.cjs server/src/models/builtin/eval-extractive.ts [squad2 dir] [--gold] [--half=even|odd]
 *   --gold: give only the question's own paragraph as knowledge (isolates the answering from retrieval).
 *   --half: only the questions on even (or odd) lines of qa.jsonl, counted from 0: develop on one half,
 *   check on the other that a change is not fitted to the questions it was developed on.
 *   --as-files: each paragraph as bench:answers ingests it, a document "<id>.txt" whose text starts with
 *   the paragraph's title on a line of its own (otherwise the title is the passage's Title).
 */
import fs from "node:fs";
import path from "node:path";
import { extractiveAnswerer } from "./extractive-chat";
import { NOT_FOUND_SENTENCE, readPrompt } from "./knowledge-prompt";
import { analyze } from "./text-analysis";

interface Qa {
  id: string;
  question: string;
  context_id: string;
  answers: string[];
  is_impossible: boolean;
}

function lines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const SYSTEM = (knowledge: string) =>
  `You are an intelligent assistant. Please summarize the content of the knowledge base to answer the question. Please list the data in the knowledge base and answer in detail. When all knowledge base content is irrelevant to the question, your answer must include the sentence "The answer you are looking for is not found in the knowledge base!" Answers need to consider chat history.
      Here is the knowledge base:
      ${knowledge}
      The above is the knowledge base.`;

async function main() {
  const args = process.argv.slice(2);
  const directory = args.find((a) => !a.startsWith("--")) ?? path.resolve(__dirname, "../../../../../shared/bench/squad2");
  const goldOnly = args.includes("--gold");
  const asFiles = args.includes("--as-files");
  const half = args.find((a) => a.startsWith("--half="))?.slice("--half=".length);
  if (half !== undefined && half !== "even" && half !== "odd") throw new Error("--half must be even or odd");
  const docs = lines(path.join(directory, "corpus.jsonl")).map((o) => ({ id: String(o._id), title: String(o.title ?? ""), text: String(o.text ?? "") }));
  const byId = new Map(docs.map((d) => [d.id, d]));
  const qas = (lines(path.join(directory, "qa.jsonl")) as unknown as Qa[]).filter((_, i) => half === undefined || i % 2 === (half === "even" ? 0 : 1));

  // BM25 (k1 1.2, b 0.75) over "title\ntext".
  const terms = docs.map((d) => analyze(`${d.title}\n${d.text}`));
  const df = new Map<string, number>();
  for (const t of terms) for (const term of new Set(t)) df.set(term, (df.get(term) ?? 0) + 1);
  const tfs = terms.map((t) => t.reduce((m, term) => m.set(term, (m.get(term) ?? 0) + 1), new Map<string, number>()));
  const average = terms.reduce((s, t) => s + t.length, 0) / terms.length;
  const retrieve = (question: string) => {
    const q = [...new Set(analyze(question))];
    const scores = docs.map((_, i) =>
      q.reduce((s, term) => {
        const tf = tfs[i].get(term) ?? 0;
        if (tf === 0) return s;
        const n = df.get(term)!;
        const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
        return s + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * terms[i].length) / average));
      }, 0),
    );
    return scores
      .map((s, i) => [s, i] as const)
      .filter(([s]) => s > 0)
      .sort((a, b) => b[0] - a[0] || a[1] - b[1])
      .slice(0, 6)
      .map(([, i]) => docs[i]);
  };

  const answerer = await extractiveAnswerer();
  const counts = { answerable: 0, answered: 0, correct: 0, unanswerable: 0, declined: 0 };
  const started = performance.now();
  for (const qa of qas) {
    const passages = goldOnly ? [byId.get(qa.context_id)!] : retrieve(qa.question);
    const knowledge = passages
      .map((p, i) => (asFiles ? `\nID: ${i}\n├── Title: ${p.id}.txt\n└── Content:\n${p.title}\n\n${p.text}` : `\nID: ${i}\n├── Title: ${p.title}\n└── Content:\n${p.text}`))
      .join("\n");
    const prompt = readPrompt([
      { role: "system", content: SYSTEM(knowledge) },
      { role: "user", content: qa.question },
    ]);
    const result = answerer.answer(prompt.passages ?? [], prompt.question, prompt.history, prompt.notFoundSentence);
    const found = result.text !== NOT_FOUND_SENTENCE;
    if (qa.is_impossible) {
      counts.unanswerable++;
      if (!found) counts.declined++;
    } else {
      counts.answerable++;
      if (found) counts.answered++;
      const cited = result.cited.map((id) => prompt.passages!.find((p) => p.id === id)!.text.toLowerCase());
      const hit = qa.answers.some((a) => result.text.toLowerCase().includes(a.toLowerCase()) || cited.some((c) => c.includes(a.toLowerCase())));
      if (found && hit) counts.correct++;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(b, 1)).toFixed(1)} %`;
  const questions = half === undefined ? `${qas.length} questions` : `${qas.length} questions (${half} lines)`;
  console.log(`${path.basename(directory)} (${goldOnly ? "gold paragraph only" : "top 6 BM25 paragraphs"}), ${questions} in ${seconds.toFixed(1)} s`);
  console.log(`  answerable:   gold answer in the answer or a cited passage ${pct(counts.correct, counts.answerable)} (answered at all ${pct(counts.answered, counts.answerable)})`);
  console.log(`  unanswerable: "not found" ${pct(counts.declined, counts.unanswerable)}`);
}

void main();

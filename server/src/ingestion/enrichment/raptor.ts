import { logMessage, type LogMessage } from "../parse-log";
import { splitSentences } from "../../models/builtin/extractive-chat";
import { lexicalScorer } from "../../models/builtin/lexical-rerank";
import type { LexicalScorer } from "../../models/builtin/lexical-scoring";
import { isCjk, tokenize } from "../../models/builtin/text-analysis";
import type { ChatModel } from "../../models/model-types";
import { countTokens, truncateToTokens } from "../../models/tokens";
import type { RaptorConfig } from "../types";
import { breathe, clusterVectors } from "./clustering";
import { askModel, errorMessage, isBuiltinChat, mapLimited, MODEL_CONCURRENCY, type EnrichmentContext } from "./context";

/** RAGFlow's default RAPTOR prompt, word for word (its indentation included). */
export const DEFAULT_RAPTOR_PROMPT =
  "Please summarize the following paragraphs. Be careful with the numbers, do not make things up. Paragraphs as following:\n      {cluster_content}\nThe above is the content you need to summarize.";

export interface RaptorSummary {
  text: string;
  vector: number[];
  /** 1 for summaries of input chunks, 2 for summaries of those, … */
  level: number;
  /** Indexes into the input chunks, or (for level > 1) into input + earlier summaries (summary k is input.length + k). */
  members: number[];
}

export interface RaptorResult {
  summaries: RaptorSummary[];
  /** What produced them, for the UI: the chat model's id (the client says what the built-in one does, in the reader's language). */
  producedBy: string;
  /** For the progress log: clusters whose summary failed. */
  notes: LogMessage[];
}

/** RaptorConfig with RAGFlow's defaults and limits applied. */
export interface RaptorSettings {
  prompt: string;
  maxTokens: number;
  threshold: number;
  maxClusters: number;
  seed: number;
}

const DEFAULT_CONTEXT_TOKENS = 8192;
const SYSTEM_PROMPT = "You're a helpful assistant.";
/** Two sentences this similar say the same thing; an extractive summary keeps only the first. */
const REDUNDANT_SIMILARITY = 0.7;

function clamp(value: unknown, min: number, max: number, fallback: number): number {
  const number = typeof value === "number" && Number.isFinite(value) ? value : fallback;
  return Math.min(max, Math.max(min, number));
}

export function raptorSettings(config: RaptorConfig): RaptorSettings {
  return {
    prompt: typeof config.prompt === "string" && config.prompt.trim() !== "" ? config.prompt : DEFAULT_RAPTOR_PROMPT,
    maxTokens: Math.floor(clamp(config.max_token, 1, 2048, 256)),
    threshold: clamp(config.threshold, 0, 1, 0.1),
    maxClusters: Math.floor(clamp(config.max_cluster, 1, 1024, 64)),
    seed: Math.floor(clamp(config.random_seed, -(2 ** 31), 2 ** 31 - 1, 0)),
  };
}

/** The prompt with the cluster's texts in place of `{cluster_content}` (after the prompt when it has no such slot). */
function fillPrompt(prompt: string, content: string): string {
  return prompt.includes("{cluster_content}") ? prompt.split("{cluster_content}").join(content) : `${prompt}\n${content}`;
}

type Summarizer = (texts: string[]) => Promise<string>;

/**
 * A summary by the chat model, as RAGFlow asks for it: the cluster's texts share what the context window
 * leaves after the answer's `max_token`, each cut to its share; the answer is limited to `max_token` too.
 */
function modelSummarizer(model: ChatModel, settings: RaptorSettings, context: EnrichmentContext): Summarizer {
  const frame = countTokens(SYSTEM_PROMPT) + countTokens(fillPrompt(settings.prompt, ""));
  return async (texts) => {
    const budget = (context.contextTokens ?? DEFAULT_CONTEXT_TOKENS) - settings.maxTokens - frame;
    const share = Math.max(1, Math.floor(budget / texts.length));
    const content = texts.map((t) => truncateToTokens(t, share)).join("\n");
    const answer = await askModel(
      model,
      [
        { role: "system", content: SYSTEM_PROMPT },
        { role: "user", content: fillPrompt(settings.prompt, content) },
      ],
      { temperature: 0.3, maxTokens: settings.maxTokens, signal: context.signal },
    );
    return truncateToTokens(answer, settings.maxTokens);
  };
}

/** Sentences handled between two breaths of the server's thread. */
const SENTENCES_PER_BREATH = 500;

function termVector(text: string, scorer: LexicalScorer): Map<string, number> {
  const counts = new Map<string, { count: number; idf: number }>();
  for (const token of tokenize(text)) {
    const entry = counts.get(token.term);
    if (entry) entry.count++;
    else counts.set(token.term, { count: 1, idf: scorer.idf(token) });
  }
  const vector = new Map<string, number>();
  let norm = 0;
  for (const [term, { count, idf }] of counts) {
    const weight = (1 + Math.log(count)) * idf;
    vector.set(term, weight);
    norm += weight * weight;
  }
  if (norm > 0) for (const [term, weight] of vector) vector.set(term, weight / Math.sqrt(norm));
  return vector;
}

function dot(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let s = 0;
  for (const [term, weight] of small) s += weight * (large.get(term) ?? 0);
  return s;
}

/**
 * The built-in summary, extractive: the sentences nearest the cluster's centroid of TF-IDF sentence vectors
 * (lexical centrality, as in centroid-based summarisers such as MEAD), skipping near-repeats, as many as
 * fit in `max_token` tokens, in reading order.
 */
export async function extractiveSummary(texts: string[], maxTokens: number, scorer: LexicalScorer): Promise<string> {
  const sentences = texts.flatMap((text, member) => splitSentences(text).map((sentence, position) => ({ sentence, member, position })));
  if (sentences.length === 0) return "";
  // a cluster of a large document holds tens of thousands of sentences: the server breathes between slices
  const vectors: Map<string, number>[] = [];
  for (const s of sentences) {
    vectors.push(termVector(s.sentence, scorer));
    if (vectors.length % SENTENCES_PER_BREATH === 0) await breathe();
  }
  const centroid = new Map<string, number>();
  for (const vector of vectors) for (const [term, weight] of vector) centroid.set(term, (centroid.get(term) ?? 0) + weight);
  const ranked = sentences.map((s, i) => ({ ...s, i, centrality: dot(vectors[i], centroid) })).sort((a, b) => b.centrality - a.centrality || a.i - b.i);
  const chosen: typeof ranked = [];
  let used = 0;
  for (const [rank, candidate] of ranked.entries()) {
    if (rank % SENTENCES_PER_BREATH === 0) await breathe();
    if (used >= maxTokens) break;
    const tokens = countTokens(candidate.sentence);
    if (used + tokens > maxTokens) continue;
    if (chosen.some((c) => dot(vectors[c.i], vectors[candidate.i]) > REDUNDANT_SIMILARITY)) continue;
    chosen.push(candidate);
    used += tokens;
  }
  if (chosen.length === 0) return truncateToTokens(ranked[0].sentence, maxTokens);
  const joiner = isCjk(chosen[0].sentence) ? "" : " ";
  return chosen
    .sort((a, b) => a.i - b.i)
    .map((c) => c.sentence)
    .join(joiner);
}

/**
 * RAPTOR (RAGFlow's rag/raptor.py): the chunks' embeddings are clustered (clustering.ts), each cluster is
 * summarised and the summary embedded; the summaries are clustered and summarised again, level after
 * level, until one node remains. A cluster of a single node is carried up to the next level as it is
 * rather than paraphrased (RAGFlow summarises it alone). A summary that fails is left out and noted.
 */
export async function buildRaptorSummaries(chunks: { text: string; vector: number[] }[], config: RaptorConfig, context: EnrichmentContext): Promise<RaptorResult> {
  const settings = raptorSettings(config);
  const { model, id } = await context.chat();
  let summarize: Summarizer;
  if (isBuiltinChat(id)) {
    const scorer = await lexicalScorer();
    summarize = async (texts) => extractiveSummary(texts, settings.maxTokens, scorer);
  } else summarize = modelSummarizer(model, settings, context);

  const nodes = chunks.map((c) => ({ text: c.text, vector: c.vector }));
  const summaries: RaptorSummary[] = [];
  const notes: LogMessage[] = [];
  let layer = nodes.map((_, i) => i).filter((i) => nodes[i].text.trim() !== "" && nodes[i].vector.length > 0);
  const leaves = layer.length;
  for (let level = 1; layer.length > 1; level++) {
    context.signal.throwIfAborted();
    const clusters = (
      await clusterVectors(
        layer.map((i) => nodes[i].vector),
        { maxClusters: settings.maxClusters, threshold: settings.threshold, seed: settings.seed + 1000 * level, signal: context.signal },
      )
    ).map((cluster) => cluster.map((j) => layer[j]));
    const groups = clusters.filter((c) => c.length > 1);
    const grouped = new Set(groups.flat());
    const carried = [...new Set(clusters.filter((c) => c.length === 1 && !grouped.has(c[0])).flat())];

    const failures: string[] = [];
    const texts = await mapLimited(groups, MODEL_CONCURRENCY, context.signal, async (members) => {
      try {
        return await summarize(members.map((i) => nodes[i].text));
      } catch (error) {
        if (context.signal.aborted) throw error;
        failures.push(errorMessage(error));
        return "";
      }
    });
    const made = groups.map((members, g) => ({ members, text: texts[g].trim() })).filter((s) => s.text !== "");
    if (failures.length > 0 || made.length < groups.length) {
      const failed = { level, failed: groups.length - made.length, clusters: groups.length };
      notes.push(failures.length > 0 ? logMessage("parseLog.raptorLevelFailedBecause", { ...failed, reason: failures[0] }) : logMessage("parseLog.raptorLevelFailed", failed));
    }
    context.signal.throwIfAborted();
    const vectors = made.length > 0 ? await context.embed(made.map((s) => s.text)) : [];
    const next: number[] = [];
    made.forEach((s, g) => {
      next.push(nodes.length);
      nodes.push({ text: s.text, vector: vectors[g] });
      summaries.push({ text: s.text, vector: vectors[g], level, members: s.members });
    });
    next.push(...carried);
    context.progress(Math.min(0.99, 1 - next.length / leaves), logMessage("parseLog.raptorLayer", { from: layer.length, to: next.length }));
    if (made.length === 0) break;
    layer = next;
  }
  context.progress(1);
  return { summaries, producedBy: id, notes };
}

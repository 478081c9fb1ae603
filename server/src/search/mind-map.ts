import type { MessageReference } from "../chat/message.entity";
import { cleanModelAnswer } from "../ingestion/enrichment/context";
import { topKeyPhrases } from "../ingestion/enrichment/key-phrases";
import type { MindMapNode } from "../knowledge/knowledge-graph";
import { lexicalScorer } from "../models/builtin/lexical-rerank";
import { completeJson } from "../models/chat-tools";
import type { ChatModel } from "../models/model-types";
import type { StoredMindMap } from "./search-record.entity";

/**
 * The mind map of a search's answer. RAGFlow's search page asks its chat model to extract one (MindMapExtractor);
 * here a model that can give JSON-schema output is asked for the answer's topics and their points, drawn from the
 * answer and the chunks it cites. The built-in chat model writes nothing of its own, so without such a model the
 * map is built from the retrieved chunks alone — the question, the documents the answer drew on, and each
 * document's key phrases — and says so (`source: "extractive"`).
 */

/** Branches and leaves kept, so that the map stays readable. */
const MAX_TOPICS = 8;
const MAX_POINTS = 6;
const KEY_PHRASES_PER_DOCUMENT = 5;
/** Chunks shown to the model (RAGFlow's mind map reads the 12 best). */
const MODEL_CHUNKS = 12;
const LABEL_MAX = 120;

const MIND_MAP_SCHEMA = {
  type: "object",
  properties: {
    topics: {
      type: "array",
      description: "The main topics of the answer, most important first.",
      items: {
        type: "object",
        properties: {
          title: { type: "string", description: "A short title, 2–6 words." },
          points: { type: "array", items: { type: "string", description: "A key point, at most 10 words." } },
        },
        required: ["title", "points"],
        additionalProperties: false,
      },
    },
  },
  required: ["topics"],
  additionalProperties: false,
};

const label = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, LABEL_MAX);

function node(id: string, text: string, children: MindMapNode[] = []): MindMapNode {
  return { id, label: label(text), children };
}

/** The question, the documents the answer drew on, and each one's key phrases. */
export async function extractiveMindMap(question: string, reference: MessageReference | null): Promise<StoredMindMap> {
  const scorer = await lexicalScorer();
  const byDocument = new Map<string, { name: string; texts: string[] }>();
  for (const chunk of reference?.chunks ?? []) {
    const entry = byDocument.get(chunk.document_id) ?? { name: chunk.document_name, texts: [] };
    entry.texts.push(chunk.content);
    byDocument.set(chunk.document_id, entry);
  }
  const documents = [...byDocument.entries()].slice(0, MAX_TOPICS).map(([documentId, { name, texts }], d) =>
    node(
      `d${d}-${documentId}`,
      name,
      topKeyPhrases(texts.join("\n\n"), KEY_PHRASES_PER_DOCUMENT, scorer).map((phrase, p) => node(`d${d}-p${p}`, phrase.text)),
    ),
  );
  return { source: "extractive", root: node("root", question, documents) };
}

/** The answer's topics and points, as the chat model gives them under the schema above. */
export async function modelMindMap(model: ChatModel, question: string, answer: string, reference: MessageReference | null, signal?: AbortSignal): Promise<StoredMindMap> {
  const knowledge = (reference?.chunks ?? [])
    .slice(0, MODEL_CHUNKS)
    .map((chunk) => `- ${chunk.content.replace(/\s+/g, " ").trim()}`)
    .join("\n");
  const answered = await completeJson(
    model,
    [
      {
        role: "system",
        content:
          "You draw mind maps. Give the main topics of the answer below, each with its key points, in the language of the question. Use only what the answer and the knowledge say.",
      },
      { role: "user", content: `Question: ${question}\n\nAnswer:\n${cleanModelAnswer(answer.replace(/\s*\[ID:\d+\]/g, ""))}\n\nKnowledge:\n${knowledge}` },
    ],
    { schema: MIND_MAP_SCHEMA, name: "mind_map", description: "The answer's mind map." },
    { temperature: 0.2, signal },
  );
  const topics = Array.isArray((answered as { topics?: unknown })?.topics) ? ((answered as { topics: unknown[] }).topics) : [];
  const children = topics.flatMap((topic, t): MindMapNode[] => {
    if (typeof topic !== "object" || topic === null) return [];
    const { title, points } = topic as { title?: unknown; points?: unknown };
    if (typeof title !== "string" || !title.trim()) return [];
    const leaves = (Array.isArray(points) ? points : []).filter((p): p is string => typeof p === "string" && p.trim() !== "").slice(0, MAX_POINTS);
    return [node(`t${t}`, title, leaves.map((point, p) => node(`t${t}-p${p}`, point)))];
  });
  return { source: "model", root: node("root", question, children.slice(0, MAX_TOPICS)) };
}

import { completeChat, type ChatMessage, type ChatModel } from "../../models/model-types";
import type { Graph, GraphEntity, GraphRelation, ParserConfig } from "../types";
import { logMessage, type LogMessage } from "../parse-log";
import { extractGraphOffline } from "./builtin-graph";

/**
 * Entity and relation extraction by a chat model, in the manner of RAGFlow's GraphRAG prompts (from
 * LightRAG): one call per chunk asking for a strict JSON answer, read robustly, and merged across chunks.
 */

export const DEFAULT_ENTITY_TYPES = ["organization", "person", "location", "event", "time"];

/**
 * The entity types to extract: `graphrag.entity_types` (what the settings page and RAGFlow's parser_config
 * schema edit) before the top-level `entity_types` the knowledge_graph method's defaults carry.
 */
export function entityTypesOf(config: ParserConfig): string[] {
  const edited = config.graphrag?.entity_types;
  const listed = Array.isArray(edited) && edited.length > 0 ? edited : config.entity_types;
  const types = (Array.isArray(listed) ? listed : DEFAULT_ENTITY_TYPES).map((t) => String(t).trim().toLowerCase()).filter((t) => t !== "");
  return types.length > 0 ? [...new Set(types)] : DEFAULT_ENTITY_TYPES;
}

const EXAMPLE_TEXT =
  "Alex clenched his jaw as Taylor announced that the Archive Council would move the Meridian records to Lisbon in March 2024.";
const EXAMPLE_ANSWER = JSON.stringify({
  entities: [
    { name: "Alex", type: "person", description: "Alex is frustrated by the council's decision, which Taylor announces." },
    { name: "Taylor", type: "person", description: "Taylor announces the Archive Council's decision to move the Meridian records." },
    { name: "Archive Council", type: "organization", description: "The Archive Council decides to move the Meridian records to Lisbon." },
    { name: "Lisbon", type: "location", description: "Lisbon is where the Meridian records will be moved." },
    { name: "March 2024", type: "time", description: "The records are moved in March 2024." },
  ],
  relations: [
    { source: "Taylor", target: "Archive Council", description: "Taylor announces the Archive Council's decision.", keywords: ["announcement", "decision"], weight: 7 },
    { source: "Archive Council", target: "Lisbon", description: "The council moves the records to Lisbon.", keywords: ["relocation"], weight: 8 },
    { source: "Alex", target: "Taylor", description: "Alex reacts to Taylor's announcement.", keywords: ["reaction"], weight: 4 },
  ],
});

export function extractionMessages(text: string, types: string[], language: string): ChatMessage[] {
  const system = `-Goal-
Given a text document and a list of entity types, identify all entities of those types in the text and all relationships among the identified entities.

-Steps-
1. Identify all entities. For each entity, extract:
- name: the entity's name, in the language of the text; capitalise English names.
- type: one of [${types.join(", ")}].
- description: a comprehensive description of the entity's attributes and activities, from the text only.
2. Among the entities of step 1, identify every pair (source, target) that is clearly related. For each pair, extract:
- source and target: names exactly as in step 1.
- description: why source and target are related.
- keywords: one or more high-level keywords summarising the nature of the relationship.
- weight: a number from 1 to 10, the strength of the relationship.
3. Write descriptions in ${language || "the language of the text"}.
4. Answer with ONE JSON object and nothing else — no explanation, no Markdown — in exactly this shape:
{"entities":[{"name":"","type":"","description":""}],"relations":[{"source":"","target":"","description":"","keywords":[""],"weight":1}]}
If the text has no entity, answer {"entities":[],"relations":[]}.

-Example-
Entity types: [person, organization, location, time]
Text: ${EXAMPLE_TEXT}
Output: ${EXAMPLE_ANSWER}`;
  return [
    { role: "system", content: system },
    { role: "user", content: `-Real data-\nEntity types: [${types.join(", ")}]\nText:\n${text}\n\nOutput:` },
  ];
}

/** The first balanced {…} of a text, strings respected; undefined when none closes. */
function firstObject(text: string): string | undefined {
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

const str = (value: unknown) => (typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "");

/**
 * A model's answer as a graph, or null when no JSON object can be read from it. Reasoning in
 * <think>…</think>, Markdown fences and text after the object are ignored; trailing commas forgiven.
 */
export function parseGraphAnswer(answer: string): Graph | null {
  let text = answer.replace(/<think>[\s\S]*?<\/think>/gi, "").replace(/^[\s\S]*<\/think>/i, "");
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced && fenced[1].includes("{")) text = fenced[1];
  const object = firstObject(text);
  if (!object) return null;
  let data: unknown;
  try {
    data = JSON.parse(object);
  } catch {
    try {
      data = JSON.parse(object.replace(/,\s*([}\]])/g, "$1"));
    } catch {
      return null;
    }
  }
  if (typeof data !== "object" || data === null) return null;
  const record = data as Record<string, unknown>;
  const entities = (Array.isArray(record.entities) ? record.entities : [])
    .filter((e): e is Record<string, unknown> => typeof e === "object" && e !== null)
    .map((e) => ({ name: str(e.name ?? e.entity_name), type: str(e.type ?? e.entity_type).toLowerCase(), description: str(e.description ?? e.entity_description) }))
    .filter((e) => e.name !== "");
  const relations = (Array.isArray(record.relations) ? record.relations : Array.isArray(record.relationships) ? record.relationships : [])
    .filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null)
    .map((r) => {
      const keywords = Array.isArray(r.keywords) ? r.keywords.map(str) : str(r.keywords).split(/[,，;；]/);
      const weight = Number(r.weight);
      return {
        source: str(r.source ?? r.src_id),
        target: str(r.target ?? r.tgt_id),
        description: str(r.description),
        keywords: keywords.map((k) => k.trim()).filter((k) => k !== ""),
        weight: Number.isFinite(weight) && weight > 0 ? weight : 1,
      };
    })
    .filter((r) => r.source !== "" && r.target !== "");
  return { entities, relations };
}

const keyOf = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

function joinDescription(existing: string, added: string): string {
  if (added === "" || existing.split("\n").includes(added)) return existing;
  return existing === "" ? added : `${existing}\n${added}`;
}

/**
 * Graphs of several chunks as one: an entity named twice (case aside) is one entity with both
 * descriptions; a relation found twice between the same two entities (either direction) has the
 * weights summed; relations whose ends are not entities are dropped.
 */
export class GraphMerger {
  private entities = new Map<string, GraphEntity & { typeCounts: Map<string, number> }>();
  private relations = new Map<string, GraphRelation>();

  add(graph: Graph): void {
    for (const entity of graph.entities) {
      const key = keyOf(entity.name);
      const found = this.entities.get(key);
      if (!found) {
        this.entities.set(key, { ...entity, name: entity.name.trim(), typeCounts: new Map([[entity.type, 1]]) });
        continue;
      }
      found.description = joinDescription(found.description, entity.description);
      found.typeCounts.set(entity.type, (found.typeCounts.get(entity.type) ?? 0) + 1);
    }
    for (const relation of graph.relations) {
      const [a, b] = [keyOf(relation.source), keyOf(relation.target)];
      if (a === b) continue;
      const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
      const found = this.relations.get(key);
      if (!found) {
        this.relations.set(key, { ...relation, keywords: [...new Set(relation.keywords)] });
        continue;
      }
      found.description = joinDescription(found.description, relation.description);
      found.keywords = [...new Set([...found.keywords, ...relation.keywords])];
      found.weight += relation.weight;
    }
  }

  result(): Graph {
    const entities = [...this.entities.values()].map(({ typeCounts, ...entity }) => {
      // The type most often given wins; the first given breaks ties.
      const type = [...typeCounts.entries()].reduce((best, next) => (next[1] > best[1] ? next : best))[0];
      return { ...entity, type };
    });
    const names = new Map(entities.map((e) => [keyOf(e.name), e.name]));
    const relations = [...this.relations.values()].flatMap((relation) => {
      const source = names.get(keyOf(relation.source));
      const target = names.get(keyOf(relation.target));
      return source && target ? [{ ...relation, source, target }] : [];
    });
    return { entities, relations };
  }
}

/** Notes about single chunks stop after this many; the count of the rest is reported. */
const MAX_CHUNK_NOTES = 5;

export interface GraphExtraction {
  /** The chat model and its id "name@Provider"; "…@Builtin" selects the offline extractor. */
  chat: { model: ChatModel; id: string };
  entityTypes: string[];
  language: string;
  signal: AbortSignal;
  /** After each text: how many are done, of how many. */
  progress(done: number, total: number): void;
}

/**
 * The entities (of the given types) and relations of some texts, one chat-model call per text, merged
 * into one graph. The built-in chat model ("…@Builtin") quotes passages and cannot answer in JSON, so
 * with it a deterministic offline extractor (proper names and co-occurrence) builds the graph instead,
 * and a note says so.
 */
export async function extractGraph(texts: string[], extraction: GraphExtraction): Promise<{ graph: Graph; notes: LogMessage[] }> {
  const { model, id } = extraction.chat;
  const merger = new GraphMerger();
  const notes: LogMessage[] = [];
  const builtin = id.endsWith("@Builtin");
  if (builtin) notes.push(logMessage("parseLog.graphBuiltin"));

  let unreadable = 0;
  let failed = 0;
  let lastError: unknown;
  for (const [index, text] of texts.entries()) {
    extraction.signal.throwIfAborted();
    if (builtin) merger.add(extractGraphOffline(text, extraction.entityTypes));
    else {
      try {
        const answer = await completeChat(model, extractionMessages(text, extraction.entityTypes, extraction.language), { temperature: 0.1, signal: extraction.signal });
        const graph = parseGraphAnswer(answer.text);
        if (graph) merger.add(graph);
        else if (++unreadable <= MAX_CHUNK_NOTES) notes.push(logMessage("parseLog.graphNotJson", { chunk: index + 1, model: id }));
      } catch (error) {
        if (extraction.signal.aborted) throw error;
        lastError = error;
        if (++failed <= MAX_CHUNK_NOTES) notes.push(logMessage("parseLog.graphModelFailed", { chunk: index + 1, model: id, reason: (error as Error).message }));
      }
    }
    extraction.progress(index + 1, texts.length);
  }
  // A model that failed on every chunk is a configuration problem the user must see, not an empty graph.
  if (texts.length > 0 && failed === texts.length) throw lastError;
  const hidden = Math.max(0, unreadable - MAX_CHUNK_NOTES) + Math.max(0, failed - MAX_CHUNK_NOTES);
  if (hidden > 0) notes.push(logMessage("parseLog.graphMoreFailed", { count: hidden }));
  return { graph: merger.result(), notes };
}

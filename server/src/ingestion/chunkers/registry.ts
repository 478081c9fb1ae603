import type { ChunkMethod } from "../types";
import { bookMethod } from "./book";
import { emailMethod } from "./email";
import { knowledgeGraphMethod } from "./knowledge-graph";
import { lawsMethod } from "./laws";
import { manualMethod } from "./manual";
import { naiveMethod } from "./naive";
import { oneMethod } from "./one";
import { paperMethod } from "./paper";
import { pictureMethod } from "./picture";
import { presentationMethod } from "./presentation";
import { qaMethod } from "./qa";
import { resumeMethod } from "./resume";
import { tableMethod } from "./table";
import { tagMethod } from "./tag";

/** RAGFlow's chunk-method ids, in the order its configuration page lists them. */
export const CHUNK_METHOD_NAMES = [
  "naive",
  "book",
  "email",
  "laws",
  "manual",
  "one",
  "paper",
  "picture",
  "presentation",
  "qa",
  "table",
  "tag",
  "resume",
  "knowledge_graph",
] as const;
export type ChunkMethodName = (typeof CHUNK_METHOD_NAMES)[number];

export const chunkMethods: ChunkMethod[] = [
  naiveMethod,
  bookMethod,
  emailMethod,
  lawsMethod,
  manualMethod,
  oneMethod,
  paperMethod,
  pictureMethod,
  presentationMethod,
  qaMethod,
  tableMethod,
  tagMethod,
  resumeMethod,
  knowledgeGraphMethod,
];

const byName = new Map(chunkMethods.map((m) => [m.name, m]));

export function chunkMethod(name: string): ChunkMethod | undefined {
  return byName.get(name);
}

import type { Chunk } from "../../../knowledge/chunk.entity";
import type { RetrievalHit, RetrievalResult } from "../../../retrieval/retrieval.service";
import type { ComponentOutput } from "../../component";
import { runComponent, testPorts } from "../../testing/run-component";
import { retrievalComponent } from "./retrieval";

/** For the model components' tests: retrieval hits without a knowledge base, and a Retrieval's output made of them. */

export function fakeHit(id: string, content: string, documentName: string): RetrievalHit {
  const chunk = { id, content, documentId: `doc-${documentName}`, knowledgeBaseId: "kb-test", positions: [], tokenCount: 0, kind: "text" } as unknown as Chunk;
  return { chunk, documentName, similarity: 0.8, termSimilarity: 0.8, vectorSimilarity: 0.8 };
}

/** What a Retrieval component outputs when the retrieval service finds `hits` (or nothing, with `emptyResponse`). */
export async function retrievalOutput(hits: RetrievalHit[], emptyResponse = ""): Promise<ComponentOutput> {
  const result: RetrievalResult = { total: hits.length, hits, documents: [], timings: { keywordMs: 0, vectorMs: 0, rerankMs: 0, totalMs: 0 } };
  const run = await runComponent(retrievalComponent, {
    params: { kb_ids: ["kb-test"], empty_response: emptyResponse },
    input: "the question",
    ports: testPorts({ retrieve: async () => result }),
  });
  return run.output;
}

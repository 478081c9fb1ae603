import { apiUser, type ApiUser, type FilePart } from "../../testing/rest-support";
import { parsedDataset } from "../../testing/knowledge-bases";
import { newId } from "../../platform/ids";
import type { HttpTestServer, TestServer } from "../../testing/app";
import { ChatAssistant, type PromptConfig, type StoredLlmSetting } from "../assistant.entity";
import type { ChatActor } from "../conversation.service";
import { ASSISTANT_RETRIEVAL_DEFAULTS, DEFAULT_EMPTY_RESPONSE, DEFAULT_LLM_SETTING, DEFAULT_OPENER, DEFAULT_SWITCHES, DEFAULT_SYSTEM_PROMPT, DEFAULT_VARIABLES } from "../prompt-defaults";
import type { FakeChatServer } from "./fake-chat-server";

/** Helpers of the chat tests: a tenant with an API key, models served by a local fake, parsed knowledge, assistants. */

const ADD_MODEL = `mutation Add($input: ModelEntryInput!) { addModelEntry(input: $input) { modelId } }`;

export type ChatUser = ApiUser;

export const chatUser = (server: HttpTestServer): Promise<ChatUser> => apiUser(server);

/** A model of the tenant served by the fake server; returns its id (name@OpenAI-API-Compatible). */
export async function addFakeModel(server: HttpTestServer, user: ChatUser, fake: FakeChatServer, modelType: "chat" | "tts" | "sequence2txt" = "chat", modelName = `paced-${modelType}`): Promise<string> {
  const added = await server.graphql<{ addModelEntry: { modelId: string } }>(
    ADD_MODEL,
    {
      input: {
        provider: "OpenAI-API-Compatible",
        modelName,
        modelType,
        credentials: [
          { name: "apiKey", value: "sk-test" },
          { name: "baseUrl", value: fake.url },
        ],
      },
    },
    user.token,
  );
  if (!added.data) throw new Error(JSON.stringify(added.errors));
  return added.data.addModelEntry.modelId;
}

/** A knowledge base with these files, parsed (the shared fixture, enrichment off). */
export const parsedKnowledgeBase = (server: HttpTestServer, user: ChatUser, files: FilePart[]): Promise<{ datasetId: string; documentIds: string[] }> =>
  parsedDataset(server, user, files);

export interface AssistantFields {
  name?: string;
  kbIds?: string[];
  llmId?: string;
  llmSetting?: StoredLlmSetting;
  prompt?: Partial<PromptConfig>;
  similarityThreshold?: number;
  vectorSimilarityWeight?: number;
  topN?: number;
  metaDataFilter?: Record<string, unknown>;
}

/** An assistant row as AssistantService would store it (RAGFlow's defaults for what is not given). */
export async function createAssistant(server: TestServer, user: ChatUser, fields: AssistantFields = {}): Promise<ChatAssistant> {
  const repository = server.platform.db.getRepository(ChatAssistant);
  const promptConfig: PromptConfig = {
    system: DEFAULT_SYSTEM_PROMPT,
    prologue: DEFAULT_OPENER,
    parameters: [...DEFAULT_VARIABLES],
    empty_response: DEFAULT_EMPTY_RESPONSE,
    ...DEFAULT_SWITCHES,
    ...fields.prompt,
  };
  const assistant = repository.create({
    id: newId(),
    tenantId: user.tenantId,
    createdBy: user.tenantId,
    name: fields.name ?? `assistant-${Math.random().toString(36).slice(2)}`,
    description: "A helpful Assistant",
    icon: null,
    language: "English",
    kbIds: fields.kbIds ?? [],
    llmId: fields.llmId ?? "",
    llmSetting: fields.llmSetting ?? { ...DEFAULT_LLM_SETTING },
    promptConfig,
    similarityThreshold: fields.similarityThreshold ?? ASSISTANT_RETRIEVAL_DEFAULTS.similarityThreshold,
    vectorSimilarityWeight: fields.vectorSimilarityWeight ?? ASSISTANT_RETRIEVAL_DEFAULTS.vectorSimilarityWeight,
    topN: fields.topN ?? ASSISTANT_RETRIEVAL_DEFAULTS.topN,
    topK: ASSISTANT_RETRIEVAL_DEFAULTS.topK,
    rerankId: "",
    doRefer: "1",
    metaDataFilter: fields.metaDataFilter ?? {},
    status: "1",
  });
  await repository.save(assistant);
  return repository.findOneByOrFail({ id: assistant.id });
}

/** The service-level actor of a user (its API key's principal). */
export async function actorOf(server: TestServer, user: ChatUser): Promise<ChatActor> {
  const principal = await server.services.principalFor(`Bearer ${user.key}`);
  if (principal.kind !== "apiToken" && principal.kind !== "session") throw new Error("not signed in");
  return { principal };
}

/** Waits until the answer row is final. */
export async function finalAnswer(server: TestServer, messageId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows: { status: string; content: string }[] = await server.platform.db.query(`SELECT * FROM chat_message WHERE id = $1`, [messageId]);
    if (rows[0] && ["done", "stopped", "failed"].includes(rows[0].status)) return rows[0] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    if (Date.now() > deadline) throw new Error(`answer ${messageId} did not finish: ${JSON.stringify(rows[0])}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

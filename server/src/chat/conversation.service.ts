import { In, IsNull } from "typeorm";
import type { BinService } from "../bin/bin.service";
import { WorkKind } from "../bin/work-kind";
import type { AssistantService } from "./assistant.service";
import { authorize, scope, scopeSql, type Action, type ConversationResource } from "../policies";
import { isSignedIn, type SharePrincipal, type SignedIn } from "../policies/principal";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import type { ModelsService } from "../models/models.service";
import { DomainError, FieldChecks, messageForClient, NotFound } from "../platform/errors";
import { copyEntity, GroupedStatement, outputsByKey } from "../platform/grouped-statement";
import { newId } from "../platform/ids";
import { englishMessage } from "../platform/messages";
import type { Platform } from "../platform";
import { storableJson } from "../platform/sql";
import type { RetrievalService } from "../retrieval/retrieval.service";
import { ChatAssistant } from "./assistant.entity";
import { CancellableRuns } from "../platform/runs/cancellable-runs";
import { answerSubscription, answerTopic, isFinal, resumableAnswer, STOP_TOPIC, type AnswerEvent } from "./answer-stream";
import { ABANDONED_AFTER_MS, AnswerWriter, type FinalAnswer } from "./answer/answer-writer";
import { generateAnswer, isAbort, type Turn } from "./answer/pipeline";
import { checkVariables } from "./answer/prompt";
import { Conversation, type ConversationSource } from "./conversation.entity";
import { Message, type AskOptions, type VariableValue } from "./message.entity";

/** A conversation with its assistant, read together (the assistant is null when its row is gone). */
interface Loaded {
  conversation: Conversation;
  assistant: ChatAssistant | null;
}

/** A conversation row as the join maps it (its assistant on `loadedAssistant`), split into the two entities. */
function splitLoaded({ loadedAssistant, ...fields }: Conversation & { loadedAssistant?: ChatAssistant | null }): Loaded {
  return { conversation: Object.assign(new Conversation(), fields), assistant: loadedAssistant ?? null };
}

/**
 * Conversations with chat assistants and their answers, for the chat page (GraphQL), the share page
 * (a share principal, scoped to its assistant and its visitor) and the service API (§7, §8). An answer is
 * generated in the background by the process that took the question, written as it grows and published
 * event by event (answer-stream.ts); any process can serve its stream, or stop it.
 */

/** Who chats: a member of the assistant's tenant, or a share page's visitor (with the visitor id it keeps). */
export type ChatPrincipal = SignedIn | SharePrincipal;

export interface ChatActor {
  principal: ChatPrincipal;
  /** The share page's visitor id (X-Visitor-Id); required of a share principal. */
  visitorId?: string | null;
}

export interface AskInput extends Omit<AskOptions, "variables"> {
  question: string;
  variables?: Record<string, unknown>;
}

export interface AskResult {
  question: Message;
  answer: Message;
  /** Settles when the answer is final (done, stopped or failed). */
  finished: Promise<void>;
}

/** A conversation that arrives whole with its question (the OpenAI-compatible endpoint): stored, then answered. */
export interface AskWithHistoryInput extends AskInput {
  /** The earlier turns as the client sent them; the question follows them. */
  history: Turn[];
}

export interface UpdateConversationInput {
  name?: string;
  userId?: string;
}

export interface CreateConversationInput {
  name?: string | null;
  /** The service API's `user_id` (§7); a signed-in user's own id otherwise, a visitor's id on a share page. */
  userId?: string | null;
  source?: ConversationSource;
}

export const DEFAULT_CONVERSATION_NAME = "New conversation";
const NAME_MAX_LENGTH = 255;
/** A conversation named by default takes its first question as its name, cut to this length. */
const AUTO_NAME_LENGTH = 60;
/** How long a stop waits for another process to close the answer before closing it itself. */
const STOP_WAIT_MS = 3000;

export interface SessionQuery {
  page?: number;
  pageSize?: number;
  orderBy?: string;
  desc?: boolean;
  id?: string;
  name?: string;
  userId?: string;
}

const SESSION_ORDER: Record<string, string> = { create_time: "createdAt", update_time: "updatedAt", name: "name", create_date: "createdAt", update_date: "updatedAt" };

/** A conversation as the policy sees it. */
export const conversationResource = (c: Conversation): ConversationResource => ({ kind: "conversation", tenantId: c.tenantId, assistantId: c.assistantId, source: c.source, userId: c.userId });

/** The turns a model sees: every question, and the answers that were finished (not failed, not empty). */
function toTurns(messages: Pick<Message, "role" | "content" | "status">[]): Turn[] {
  return messages
    .filter((m) => m.role === "user" || (["done", "stopped"].includes(m.status) && m.content !== ""))
    .map((m) => ({ role: m.role, content: m.content }));
}

/** Most questions or conversation reads in one grouped statement. */
const MAX_ITEMS_PER_STATEMENT = 128;

/** A question to store with its answer to come (ConversationService.askIn). */
interface StoredQuestion {
  conversationId: string;
  questionId: string;
  answerId: string;
  question: string;
  variables: AskOptions | null;
  /** The conversation's new name, when the question names it. */
  name: string | null;
  /** Whether the conversation's earlier messages come with their content (not when the turns were sent whole). */
  contents: boolean;
}

/** A row of a conversation after its question was stored: the two stored rows, and the messages before them. */
type StoredRow = Pick<Message, "id" | "position" | "role" | "content" | "status"> & { stored: boolean; created_at: Date; updated_at: Date };

/**
 * Stores questions of distinct conversations, each with its answer row to come (status 'searching'), in one
 * statement: touches each conversation, and reads each conversation's messages before them. Returns each
 * question's conversation rows in position order.
 */
async function storeQuestions(platform: Platform, questions: StoredQuestion[]): Promise<StoredRow[][]> {
  const rows: (StoredRow & { conversation_id: string })[] = await platform.db.query(
    `WITH q AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS q(conversation_id varchar, question_id varchar, answer_id varchar, question text, variables jsonb, name varchar, contents boolean)),
     touched AS (UPDATE chat_conversation c SET updated_at = now(), name = coalesce(q.name, c.name) FROM q WHERE c.id = q.conversation_id),
     p AS (SELECT q.*, (SELECT COALESCE(MAX(m.position), -1) FROM chat_message m WHERE m.conversation_id = q.conversation_id) AS last FROM q),
     stored AS (
       INSERT INTO chat_message (id, conversation_id, position, role, content, status, seq, variables)
       SELECT question_id, conversation_id, last + 1, 'user', question, 'done', 0, variables FROM p
       UNION ALL SELECT answer_id, conversation_id, last + 2, 'assistant', '', 'searching', 0, NULL FROM p
       RETURNING conversation_id, id, position, role, content, status, created_at, updated_at)
     SELECT true AS stored, * FROM stored
     UNION ALL SELECT false, m.conversation_id, m.id, m.position, m.role, CASE WHEN q.contents THEN m.content ELSE '' END, m.status, m.created_at, m.updated_at
       FROM chat_message m JOIN q ON m.conversation_id = q.conversation_id
     ORDER BY conversation_id, position`,
    [
      storableJson(
        questions.map((q) => ({ conversation_id: q.conversationId, question_id: q.questionId, answer_id: q.answerId, question: q.question, variables: q.variables, name: q.name, contents: q.contents })),
      ),
    ],
  );
  const byConversation = new Map<string, StoredRow[]>(questions.map((q) => [q.conversationId, []]));
  for (const { conversation_id, ...row } of rows) byConversation.get(conversation_id)!.push(row);
  return questions.map((q) => byConversation.get(q.conversationId)!);
}

export class ConversationService {
  private readonly writer: AnswerWriter;
  /** The answers being generated: a stop, taken by any process, reaches the one generating it. */
  private readonly runs: CancellableRuns;
  /**
   * The answers this process is writing, with the conversation and assistant their question was checked against:
   * a subscriber of this process is checked against the same rows, without reading them again.
   */
  private readonly writing = new Map<string, Loaded>();
  private sweepTimer: NodeJS.Timeout | null = null;
  /** Conversations with their assistants, the reads of requests that arrive together in one statement. */
  private readonly loads = new GroupedStatement<string, Loaded | null>((ids) => this.conversationsWithAssistants(ids), { maxItems: MAX_ITEMS_PER_STATEMENT });
  /** Questions stored, those asked together in one statement (one per conversation: each takes the next positions). */
  private readonly questionStores = new GroupedStatement<StoredQuestion, StoredRow[]>((questions) => storeQuestions(this.platform, questions), {
    maxItems: MAX_ITEMS_PER_STATEMENT,
    key: (question) => question.conversationId,
  });

  constructor(
    private readonly platform: Platform,
    private readonly deps: { models: ModelsService; retrieval: RetrievalService; assistants: AssistantService; bin: BinService },
  ) {
    this.writer = new AnswerWriter(platform);
    this.runs = CancellableRuns.on(platform.pubsub, STOP_TOPIC);
  }

  private get conversations() {
    return this.platform.db.getRepository(Conversation);
  }

  private get messages() {
    return this.platform.db.getRepository(Message);
  }

  // ---- who may use what -------------------------------------------------------------------------

  /** The live assistant the actor may chat with: one of its tenant's, or exactly the shared one (AssistantService decides). */
  usableAssistant(actor: ChatActor, assistant: string | ChatAssistant | null): Promise<ChatAssistant> {
    return this.deps.assistants.usable(actor.principal, assistant);
  }

  /** The assistant's knowledge bases that still exist and that its maker may still use. */
  knowledgeBasesOf(assistant: ChatAssistant, asker?: ChatPrincipal): Promise<KnowledgeBase[]> {
    return this.deps.assistants.usableKnowledgeBases(assistant, asker);
  }

  private visitorOf(actor: ChatActor): string {
    const visitor = actor.visitorId?.trim();
    if (!visitor) throw new DomainError("BAD_REQUEST", "errors.conversation.visitorRequired");
    return visitor;
  }

  /** The principal the conversation policy judges: a share page's visitor carries their id, whose conversations are theirs. */
  private policyPrincipal(actor: ChatActor): ChatPrincipal {
    return actor.principal.kind === "share" ? { ...actor.principal, visitorId: this.visitorOf(actor) } : actor.principal;
  }

  /**
   * A conversation with its assistant, read together (every question and every answer's subscription starts
   * here, and each statement is a round trip that adds up under load); null when there is no such conversation.
   */
  private conversationWithAssistant(id: string): Promise<Loaded | null> {
    return this.loads.submit(id);
  }

  /** The conversations with these ids, in their order (null where none). */
  private async conversationsWithAssistants(ids: string[]): Promise<(Loaded | null)[]> {
    const rows = await this.conversations
      .createQueryBuilder("c")
      .leftJoinAndMapOne("c.loadedAssistant", ChatAssistant, "a", "a.id = c.assistantId")
      .where("c.id IN (:...ids)", { ids })
      .getMany();
    const loaded = new Map(rows.map((row) => [row.id, splitLoaded(row)]));
    return outputsByKey(ids, loaded, ({ conversation, assistant }) => ({ conversation: copyEntity(conversation), assistant: assistant && copyEntity(assistant) }));
  }

  private async access(actor: ChatActor, loaded: Loaded | null, action: Action = "use"): Promise<{ conversation: Conversation; assistant: ChatAssistant }> {
    const principal = this.policyPrincipal(actor);
    if (!loaded || loaded.conversation.binnedIn) throw NotFound("errors.conversation.notFound");
    const { conversation } = loaded;
    authorize(principal, action, conversationResource(conversation));
    try {
      const assistant = await this.usableAssistant(actor, loaded.assistant);
      return { conversation, assistant };
    } catch (error) {
      if (error instanceof DomainError && error.kind === "NOT_FOUND") throw NotFound("errors.conversation.notFound");
      throw error;
    }
  }

  private async ownMessage(actor: ChatActor, messageId: string): Promise<{ message: Message; conversation: Conversation; assistant: ChatAssistant }> {
    const found = (await this.messages
      .createQueryBuilder("m")
      .leftJoinAndMapOne("m.loadedConversation", Conversation, "c", "c.id = m.conversationId")
      .leftJoinAndMapOne("c.loadedAssistant", ChatAssistant, "a", "a.id = c.assistantId")
      .where("m.id = :id", { id: messageId })
      .getOne()) as (Message & { loadedConversation?: Conversation & { loadedAssistant?: ChatAssistant | null } }) | null;
    if (!found) throw NotFound("errors.conversation.messageNotFound");
    const { loadedConversation, ...fields } = found;
    const message = Object.assign(new Message(), fields);
    return { message, ...(await this.messageAccess(actor, loadedConversation ? splitLoaded(loadedConversation) : null)) };
  }

  /** `access` for a message of the conversation: what is not found is the message. */
  private async messageAccess(actor: ChatActor, loaded: Loaded | null): Promise<{ conversation: Conversation; assistant: ChatAssistant }> {
    try {
      return await this.access(actor, loaded);
    } catch (error) {
      if (error instanceof DomainError && error.kind === "NOT_FOUND") throw NotFound("errors.conversation.messageNotFound");
      throw error;
    }
  }

  private async ownAnswer(actor: ChatActor, messageId: string) {
    const found = await this.ownMessage(actor, messageId);
    if (found.message.role !== "assistant") throw new DomainError("BAD_REQUEST", "errors.conversation.notAnAnswer");
    return found;
  }

  // ---- conversations ----------------------------------------------------------------------------

  /** The actor's conversations with an assistant, newest first: a visitor's own on a share page, else the tenant's (not visitors'). */
  async list(actor: ChatActor, assistantId: string): Promise<Conversation[]> {
    const assistant = await this.usableAssistant(actor, assistantId);
    return this.readable(actor, assistant).orderBy("c.updatedAt", "DESC").addOrderBy("c.id", "DESC").getMany();
  }

  /** The conversations with the assistant that the actor may read (the conversation policy's scope). */
  private readable(actor: ChatActor, assistant: ChatAssistant) {
    const visible = scopeSql(scope(this.policyPrincipal(actor), "read", "conversation"), "c");
    return this.conversations.createQueryBuilder("c").where(`${visible.sql} AND c.assistantId = :assistantId AND c.binnedIn IS NULL`, { ...visible.params, assistantId: assistant.id });
  }

  /** The service API's session list (§7.2): paging, ordering and exact filters. */
  async listSessions(principal: SignedIn, assistantId: string, query: SessionQuery): Promise<Conversation[]> {
    const assistant = await this.usableAssistant({ principal }, assistantId);
    const pageSize = Math.max(0, query.pageSize ?? 30);
    if (pageSize === 0) return [];
    const builder = this.readable({ principal }, assistant);
    if (query.id) builder.andWhere("c.id = :id", { id: query.id });
    if (query.name) builder.andWhere("c.name = :name", { name: query.name });
    if (query.userId) builder.andWhere("c.userId = :userId", { userId: query.userId });
    const column = SESSION_ORDER[query.orderBy ?? "create_time"] ?? "createdAt";
    const direction = query.desc === false ? "ASC" : "DESC";
    return builder
      .orderBy(`c.${column}`, direction)
      .addOrderBy("c.id", direction)
      .skip((Math.max(1, query.page ?? 1) - 1) * pageSize)
      .take(pageSize)
      .getMany();
  }

  /** The service API's session `sessionId` of an assistant (not a share page's), or null; the caller checks the chat. */
  apiSession(assistantId: string, sessionId: string): Promise<Conversation | null> {
    return this.conversations.findOneBy({ id: sessionId, assistantId, source: In(["web", "api"]), binnedIn: IsNull() });
  }

  async get(actor: ChatActor, id: string): Promise<Conversation> {
    return (await this.access(actor, await this.conversationWithAssistant(id), "read")).conversation;
  }

  /** The messages of conversations, in order, by conversation id (one query for a list). */
  async messagesOf(conversationIds: readonly string[]): Promise<Map<string, Message[]>> {
    const byConversation = new Map<string, Message[]>(conversationIds.map((id) => [id, []]));
    if (conversationIds.length === 0) return byConversation;
    const rows = await this.messages.find({ where: { conversationId: In([...conversationIds]) }, order: { conversationId: "ASC", position: "ASC" } });
    for (const row of rows) byConversation.get(row.conversationId)?.push(row);
    return byConversation;
  }

  private checkName(name: string): string {
    const trimmed = name.trim();
    new FieldChecks()
      .check(trimmed.length > 0, "name", "errors.conversation.nameRequired")
      .check(trimmed.length <= NAME_MAX_LENGTH, "name", "errors.conversation.nameTooLong", { max: NAME_MAX_LENGTH })
      .throwIfAny();
    return trimmed;
  }

  /** A new conversation; the assistant's opener, when it has one, is its first message. */
  async create(actor: ChatActor, assistantId: string, input: CreateConversationInput = {}): Promise<Conversation> {
    const assistant = await this.usableAssistant(actor, assistantId);
    const name = input.name === undefined || input.name === null ? DEFAULT_CONVERSATION_NAME : this.checkName(input.name);
    const share = actor.principal.kind === "share";
    const userId = share ? this.visitorOf(actor) : (input.userId ?? (actor.principal as SignedIn).user.id);
    const conversation = this.conversations.create({
      id: newId(),
      assistantId: assistant.id,
      tenantId: assistant.tenantId,
      userId: userId.slice(0, 255),
      source: share ? "share" : (input.source ?? "web"),
      name,
    });
    await this.conversations.insert(conversation);
    if (assistant.opener) {
      await this.messages.insert(
        this.messages.create({ id: newId(), conversationId: conversation.id, position: 0, role: "assistant", content: assistant.opener, status: "done", seq: 0 }),
      );
    }
    return this.conversations.findOneByOrFail({ id: conversation.id });
  }

  rename(actor: ChatActor, id: string, name: string): Promise<Conversation> {
    return this.update(actor, id, { name });
  }

  /** Renames a conversation and/or changes whose it is (the service API's `user_id`, §7.3). */
  async update(actor: ChatActor, id: string, input: UpdateConversationInput): Promise<Conversation> {
    const { conversation } = await this.access(actor, await this.conversationWithAssistant(id), "manage");
    const changes: Partial<Pick<Conversation, "name" | "userId">> = {};
    if (input.name !== undefined) changes.name = this.checkName(input.name);
    if (input.userId !== undefined) changes.userId = input.userId.slice(0, 255);
    if (Object.keys(changes).length > 0) await this.conversations.update({ id: conversation.id }, changes);
    return this.conversations.findOneByOrFail({ id: conversation.id });
  }

  /**
   * Deletes the actor's conversations among `ids` (answers being written stop); how many were deleted. A signed-in user's
   * go into the recycle bin (the web app's delete); a share page's visitor, who has no bin, deletes theirs for good.
   */
  async delete(actor: ChatActor, ids: string[]): Promise<number> {
    const own = await this.deletable(actor, ids);
    if (!isSignedIn(actor.principal)) return this.destroyConversations(own);
    await this.stopAnswers(own);
    const assistants = new Map<string, string>();
    for (const id of new Set(own.map((c) => c.assistantId))) assistants.set(id, (await this.usableAssistant(actor, id)).name);
    await this.deps.bin.put(actor.principal, WorkKind.conversation, own.map((c) => ({ id: c.id, tenantId: c.tenantId, name: c.name, detail: { parentName: assistants.get(c.assistantId) } })));
    return own.length;
  }

  /** Destroys the actor's conversations among `ids` with their messages (the REST API's delete); how many were. */
  async destroy(actor: ChatActor, ids: string[]): Promise<number> {
    return this.destroyConversations(await this.deletable(actor, ids));
  }

  private async destroyConversations(own: Conversation[]): Promise<number> {
    if (own.length === 0) return 0;
    await this.stopAnswers(own);
    await this.conversations.delete({ id: In(own.map((c) => c.id)) });
    return own.length;
  }

  /** The live conversations among `ids` that the actor may delete; the others are left alone. */
  private async deletable(actor: ChatActor, ids: string[]): Promise<Conversation[]> {
    const found = ids.length > 0 ? await this.conversationsWithAssistants([...new Set(ids)]) : [];
    const own: Conversation[] = [];
    for (const loaded of found) {
      try {
        own.push((await this.access(actor, loaded, "delete")).conversation);
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === "NOT_FOUND")) throw error;
      }
    }
    return own;
  }

  /** Answers being written in these conversations stop, in whichever process writes them. */
  private async stopAnswers(conversations: Conversation[]): Promise<void> {
    if (conversations.length === 0) return;
    const open = await this.messages.find({ where: { conversationId: In(conversations.map((c) => c.id)), status: In(["searching", "streaming"]) }, select: { id: true } });
    for (const message of open) this.runs.cancel(message.id);
  }

  // ---- questions and answers --------------------------------------------------------------------

  /**
   * Asks a question: the question and an answer in status 'searching' are stored and returned at once;
   * the answer is generated in the background. `listen` receives every event of it in this process.
   */
  async ask(actor: ChatActor, conversationId: string, input: AskInput, listen?: (event: AnswerEvent) => void): Promise<AskResult> {
    const { conversation, assistant } = await this.access(actor, await this.conversationWithAssistant(conversationId));
    return this.askIn(actor.principal, conversation, assistant, input, null, listen);
  }

  /**
   * A conversation that a client sends whole with each question (the OpenAI-compatible endpoint): stored as a
   * new service API conversation named after the question, its earlier turns as they were sent, then asked
   * like any other. The answer is generated from the turns as sent.
   */
  async askWithHistory(principal: SignedIn, assistantId: string, input: AskWithHistoryInput, listen?: (event: AnswerEvent) => void): Promise<AskResult> {
    const actor: ChatActor = { principal };
    const question = (input.question ?? "").trim();
    new FieldChecks().check(question.length > 0, "question", "errors.conversation.questionRequired").throwIfAny();
    const assistant = await this.usableAssistant(actor, assistantId);
    // Refused before anything is stored, as ask refuses before it stores the question.
    checkVariables(assistant.promptVariables, input.variables ?? {});
    const conversation = await this.create(actor, assistant.id, { name: question.slice(0, AUTO_NAME_LENGTH), source: "api" });
    const opened = assistant.opener ? 1 : 0;
    if (input.history.length > 0) {
      await this.messages.insert(
        input.history.map((turn, i) =>
          this.messages.create({ id: newId(), conversationId: conversation.id, position: opened + i, role: turn.role, content: turn.content, status: "done", seq: 0 }),
        ),
      );
    }
    return this.askIn(principal, conversation, assistant, input, input.history, listen);
  }

  /** Stores the question and an answer to come, and generates it from `turns` (default: the stored conversation). */
  private async askIn(
    asker: ChatPrincipal,
    conversation: Conversation,
    assistant: ChatAssistant,
    input: AskInput,
    turnsBefore: Turn[] | null,
    listen?: (event: AnswerEvent) => void,
  ): Promise<AskResult> {
    const question = (input.question ?? "").trim();
    new FieldChecks().check(question.length > 0, "question", "errors.conversation.questionRequired").throwIfAny();
    const variables = Object.fromEntries(
      Object.entries(input.variables ?? {}).map(([key, value]) => [key, value === null || ["string", "number", "boolean"].includes(typeof value) ? (value as VariableValue) : JSON.stringify(value)]),
    );
    const options: AskOptions = {
      ...(Object.keys(variables).length > 0 ? { variables } : {}),
      ...(input.documentIds ? { documentIds: input.documentIds } : {}),
      ...(input.quote !== undefined ? { quote: input.quote } : {}),
    };
    checkVariables(assistant.promptVariables, options.variables ?? {});
    // Read while the question is stored: the answer starts from them.
    const knowledgeBases = this.knowledgeBasesOf(assistant, asker);
    knowledgeBases.catch(() => undefined);

    // One statement stores the two rows, touches the conversation and reads the conversation before them
    // (the turns the model is shown): every query on this path delays the first token.
    const autoName = conversation.name === DEFAULT_CONVERSATION_NAME && conversation.source !== "api";
    const [questionId, answerId] = [newId(), newId()];
    const storedOptions = Object.keys(options).length > 0 ? options : null;
    const stored: StoredQuestion = {
      conversationId: conversation.id,
      questionId,
      answerId,
      question,
      variables: storedOptions,
      name: autoName ? question.slice(0, AUTO_NAME_LENGTH) : null,
      contents: !turnsBefore,
    };
    let rows: StoredRow[];
    for (let attempt = 0; ; attempt++) {
      try {
        rows = await this.questionStores.submit(stored);
        break;
      } catch (error) {
        // Two questions at once in one conversation (asked of two processes): the unique position decides; the later one goes after.
        if (attempt >= 3 || !String((error as Error).message).includes("chat_message_position_key")) throw error;
      }
    }
    const inserted = rows.filter((r) => r.stored);
    const storedRow = (id: string, columns: Pick<Message, "role" | "content" | "status" | "variables">): Message => {
      const row = inserted.find((r) => r.id === id)!;
      return this.messages.create({
        ...columns,
        id,
        conversationId: conversation.id,
        position: row.position,
        seq: 0,
        error: null,
        reference: null,
        prompt: null,
        promptTokens: 0,
        completionTokens: 0,
        firstTokenMs: null,
        durationMs: null,
        feedback: null,
        createdAt: new Date(row.created_at),
        updatedAt: new Date(row.updated_at),
      });
    };
    const asked = storedRow(questionId, { role: "user", content: question, status: "done", variables: storedOptions });
    const answer = storedRow(answerId, { role: "assistant", content: "", status: "searching", variables: null });
    const history = rows.filter((r) => !r.stored && r.position < asked.position);
    const turns = async () => [...(turnsBefore ?? toTurns(history)), { role: "user" as const, content: question }];
    const finished = this.generate(knowledgeBases, conversation, assistant, answer, turns, options, listen);
    return { question: asked, answer, finished };
  }

  /** The conversation up to a position: questions and the answers that were finished (not failed). */
  private async turnsBefore(conversationId: string, position: number): Promise<Turn[]> {
    const rows = await this.messages.find({ where: { conversationId }, order: { position: "ASC" } });
    return toTurns(rows.filter((m) => m.position < position));
  }

  /** Runs the pipeline for an answer row in status 'searching', writing and publishing as it goes. */
  private generate(
    knowledgeBases: Promise<KnowledgeBase[]>,
    conversation: Conversation,
    assistant: ChatAssistant,
    answer: Message,
    turns: () => Promise<Turn[]>,
    options: AskOptions,
    listen?: (event: AnswerEvent) => void,
  ): Promise<void> {
    const run = this.runs.start(answer.id);
    this.writing.set(answer.id, { conversation, assistant });
    const state = this.writer.begin(answer.id, () => run.abort(), listen);
    const finished = (async () => {
      let final: FinalAnswer;
      try {
        const outcome = await generateAnswer(
          this.deps,
          {
            assistant,
            knowledgeBases: await knowledgeBases,
            turns: await turns(),
            variables: options.variables ?? {},
            documentIds: options.documentIds,
            quote: options.quote,
            signal: run.signal,
          },
          {
            reference: async (reference) => void (await this.writer.reference(state, reference)),
            delta: (text) => this.writer.delta(state, text),
          },
        );
        final = {
          status: outcome.stopped ? "stopped" : "done",
          content: outcome.stopped ? state.content : outcome.content,
          reference: outcome.reference,
          prompt: outcome.prompt,
          promptTokens: outcome.promptTokens,
          completionTokens: outcome.completionTokens,
          firstTokenMs: outcome.firstTokenMs,
          durationMs: outcome.durationMs,
        };
      } catch (error) {
        if (isAbort(error, run.signal)) final = { status: "stopped", content: state.content };
        else {
          final = { status: "failed", content: state.content, error: messageForClient(`chat answer ${answer.id}`, error) };
        }
      }
      await this.writer.finish(state, final);
    })()
      .catch((error) => console.error(`[chat] could not finish answer ${answer.id}:`, error))
      .finally(() => {
        this.writing.delete(answer.id);
        run.end();
      });
    return finished;
  }

  /** Stops an answer being written; what was written stays, with status 'stopped'. */
  async stop(actor: ChatActor, messageId: string): Promise<Message> {
    const { message } = await this.ownAnswer(actor, messageId);
    if (isFinal(message.status)) return message;
    const local = this.runs.get(message.id);
    this.runs.cancel(message.id);
    if (local) {
      await local.ended;
      return this.messages.findOneByOrFail({ id: message.id });
    }
    const deadline = Date.now() + (this.platform.config.redisUrl ? STOP_WAIT_MS : 0);
    for (;;) {
      const current = await this.messages.findOneBy({ id: message.id });
      if (!current || isFinal(current.status)) return current ?? message;
      if (Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // No process is writing it (it died): close it here.
    await this.closeOpen([message.id], "stopped", null);
    return this.messages.findOneByOrFail({ id: message.id });
  }

  /** A new answer to the same question, in place of this one (a new message id). */
  async regenerate(actor: ChatActor, messageId: string): Promise<Message> {
    const { message, conversation, assistant } = await this.ownAnswer(actor, messageId);
    if (!isFinal(message.status)) await this.stop(actor, messageId);
    const question = await this.messages.findOneBy({ conversationId: conversation.id, position: message.position - 1 });
    if (!question || question.role !== "user") throw new DomainError("BAD_REQUEST", "errors.conversation.nothingToRegenerate");
    const options = question.variables ?? {};
    checkVariables(assistant.promptVariables, options.variables ?? {});
    const replacement = this.messages.create({ id: newId(), conversationId: conversation.id, position: message.position, role: "assistant", content: "", status: "searching", seq: 0 });
    await this.platform.db.transaction(async (manager) => {
      await manager.delete(Message, { id: message.id });
      await manager.insert(Message, replacement);
    });
    await this.conversations.update({ id: conversation.id }, {});
    void this.generate(this.knowledgeBasesOf(assistant, actor.principal), conversation, assistant, replacement, () => this.turnsBefore(conversation.id, replacement.position), options);
    return this.messages.findOneByOrFail({ id: replacement.id });
  }

  /** Thumbs up or down with an optional comment; null clears the rating. */
  async rate(actor: ChatActor, messageId: string, thumb: string | null, comment?: string | null): Promise<Message> {
    const { message } = await this.ownAnswer(actor, messageId);
    new FieldChecks().check(thumb === null || thumb === "up" || thumb === "down", "thumb", "errors.conversation.thumbInvalid").throwIfAny();
    const feedback = thumb === null ? null : { thumb: thumb as "up" | "down", comment: comment?.trim() ? comment.trim().slice(0, 2000) : null };
    await this.platform.db.query(`UPDATE chat_message SET feedback = $2::jsonb WHERE id = $1`, [message.id, feedback ? JSON.stringify(feedback) : null]);
    return this.messages.findOneByOrFail({ id: message.id });
  }

  /** The answer's events for this subscriber: what it missed first, then the rest live (answer-stream.ts). */
  async answerStream(actor: ChatActor, messageId: string): Promise<AsyncIterable<AnswerEvent>> {
    // Listening first, the stream starts from the answer as this process is writing it (checked against the
    // conversation its question was asked in: no read at all), or else from the row read to check access.
    const live = answerSubscription(this.platform, messageId);
    try {
      const inProcess = this.writing.get(messageId);
      if (inProcess) await this.messageAccess(actor, inProcess);
      let row = inProcess ? this.writer.current(messageId) : null;
      if (!row) {
        const { message } = await this.ownAnswer(actor, messageId);
        row = this.writer.current(message.id) ?? message;
      }
      return resumableAnswer(this.platform, messageId, async () => this.writer.current(messageId) ?? this.messages.findOneBy({ id: messageId }), { live, row });
    } catch (error) {
      await live.close();
      throw error;
    }
  }

  /** The answer's row as it is now. */
  async message(actor: ChatActor, messageId: string): Promise<Message> {
    return (await this.ownMessage(actor, messageId)).message;
  }

  // ---- crashes and shutdown ---------------------------------------------------------------------

  private async closeOpen(ids: string[] | null, status: "stopped" | "failed", error: string | null): Promise<number> {
    const params: unknown[] = [status, error];
    let where = `status IN ('searching', 'streaming')`;
    if (ids) {
      params.push(ids);
      where += ` AND id = ANY($3)`;
    } else if (this.platform.config.redisUrl) {
      // Other server processes may be writing answers right now; theirs are touched every few seconds.
      params.push(new Date(Date.now() - ABANDONED_AFTER_MS));
      where += ` AND updated_at < $3`;
    }
    const result: unknown = await this.platform.db.query(
      `UPDATE chat_message SET status = $1, error = $2, seq = seq + 1, updated_at = now() WHERE ${where} RETURNING id, seq, content, status, error, reference`,
      params,
    );
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Pick<Message, "id" | "seq" | "content" | "status" | "error" | "reference">[];
    for (const row of rows) {
      this.platform.pubsub.publish(answerTopic(row.id), { messageId: row.id, seq: row.seq, status: row.status, content: row.content, reference: row.reference, error: row.error } satisfies AnswerEvent);
    }
    return rows.length;
  }

  /**
   * Answers a server was writing when it stopped: marked failed with a reason, never left 'streaming'.
   * With Redis (several processes), only rows no process has touched for a while, checked again periodically.
   */
  async closeInterruptedAnswers(): Promise<number> {
    const closed = await this.closeOpen(null, "failed", englishMessage("errors.conversation.interrupted"));
    if (this.platform.config.redisUrl && !this.sweepTimer) {
      this.sweepTimer = setInterval(() => void this.closeOpen(null, "failed", englishMessage("errors.conversation.interrupted")).catch(() => undefined), ABANDONED_AFTER_MS);
      this.sweepTimer.unref?.();
    }
    return closed;
  }

  /** Stops every answer this process is writing (each keeps what was written, as 'stopped'). */
  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.runs.cancelAll();
    await this.writer.drain();
    this.writer.close();
    await this.runs.close();
  }
}

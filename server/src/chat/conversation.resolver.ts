import { GraphQLJSONObject } from "graphql-scalars";
import { Arg, Ctx, Field, FieldResolver, Float, ID, Int, Mutation, ObjectType, Query, Resolver, Root, Subscription } from "type-graphql";
import type { SubscribeResolverData } from "type-graphql";
import type { GraphQLContext } from "../graphql/context";
import { Unauthenticated } from "../platform/errors";
import { DocumentAggregateType } from "../retrieval/retrieval.resolver";
import type { AnswerEvent as StreamEvent } from "./answer-stream";
import type { ChatActor } from "./conversation.service";
import { Conversation } from "./conversation.entity";
import { Message, type MessageReference } from "./message.entity";

/**
 * Conversations over GraphQL, for the chat page (a member of the assistant's tenant) and the share page
 * (a share principal: its own assistant, its own visitor's conversations). Thin: ConversationService
 * decides everything.
 */

@ObjectType({ description: "A chunk an answer may cite as [ID:index]." })
export class ChatReference {
  @Field(() => Int, { description: "n of the citation [ID:n] (0-based)." })
  index: number;

  @Field(() => ID)
  chunkId: string;

  @Field(() => ID)
  documentId: string;

  @Field()
  documentName: string;

  @Field(() => ID)
  knowledgeBaseId: string;

  @Field()
  content: string;

  @Field(() => Float)
  similarity: number;

  @Field(() => Float)
  termSimilarity: number;

  @Field(() => Float)
  vectorSimilarity: number;

  @Field(() => Int, { nullable: true })
  page: number | null;
}

@ObjectType()
class AskResult {
  @Field(() => Message)
  question: Message;

  @Field(() => Message)
  answer: Message;
}

@ObjectType({ description: "One event of an answer's stream: first a snapshot (content), then live events (delta)." })
export class AnswerEvent {
  @Field(() => ID)
  messageId: string;

  @Field(() => Int)
  seq: number;

  @Field({ description: "searching, streaming, done, stopped or failed." })
  status: string;

  @Field(() => String, { nullable: true, description: "Text added since the previous event." })
  delta: string | null;

  @Field(() => String, { nullable: true, description: "The whole answer so far: on the first (snapshot) event, and on the final one." })
  content: string | null;

  @Field(() => [ChatReference], { nullable: true })
  references: ChatReference[] | null;

  @Field(() => String, { nullable: true })
  error: string | null;
}

export function referencesOf(reference: MessageReference | null | undefined): ChatReference[] {
  return (reference?.chunks ?? []).map((chunk, index) => ({
    index,
    chunkId: chunk.id,
    documentId: chunk.document_id,
    documentName: chunk.document_name,
    knowledgeBaseId: chunk.dataset_id,
    content: chunk.content,
    similarity: chunk.similarity ?? 0,
    termSimilarity: chunk.term_similarity ?? 0,
    vectorSimilarity: chunk.vector_similarity ?? 0,
    page: chunk.page ?? chunk.positions?.[0]?.[0] ?? null,
  }));
}

/** A chat principal: a member of a tenant, or a shared assistant's visitor (a shared flow's is not one). */
export function chatActor(context: GraphQLContext): ChatActor {
  const principal = context.principal;
  if (principal.kind === "anonymous" || principal.kind === "flowShare") throw Unauthenticated();
  return { principal, visitorId: context.visitorId ?? null };
}

@Resolver(() => Message)
export class ChatMessageFieldsResolver {
  @FieldResolver(() => [ChatReference])
  references(@Root() message: Message): ChatReference[] {
    return referencesOf(message.reference);
  }

  @FieldResolver(() => [DocumentAggregateType], { description: "The documents the answer cites, with how many of its chunks." })
  documents(@Root() message: Message): DocumentAggregateType[] {
    return (message.reference?.doc_aggs ?? []).map((d) => ({ documentId: d.doc_id, documentName: d.doc_name, count: d.count }));
  }

  @FieldResolver(() => String, { nullable: true, description: "up, down, or null." })
  thumb(@Root() message: Message): string | null {
    return message.feedback?.thumb ?? null;
  }

  @FieldResolver(() => String, { nullable: true })
  feedbackComment(@Root() message: Message): string | null {
    return message.feedback?.comment ?? null;
  }
}

@Resolver(() => Conversation)
export class ConversationResolver {
  @FieldResolver(() => [Message])
  async messages(@Root() conversation: Conversation, @Ctx() context: GraphQLContext): Promise<Message[]> {
    const loaded = (conversation as Conversation & { loadedMessages?: Message[] }).loadedMessages;
    if (loaded) return loaded;
    return (await context.services.conversations.messagesOf([conversation.id])).get(conversation.id) ?? [];
  }

  @Query(() => [Conversation], { description: "Newest first; on a share page, only its visitor's." })
  async conversations(@Arg("assistantId", () => ID) assistantId: string, @Ctx() context: GraphQLContext): Promise<Conversation[]> {
    const list = await context.services.conversations.list(chatActor(context), assistantId);
    const messages = await context.services.conversations.messagesOf(list.map((c) => c.id));
    return list.map((c) => Object.assign(c, { loadedMessages: messages.get(c.id) ?? [] }));
  }

  @Query(() => Conversation)
  conversation(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<Conversation> {
    return context.services.conversations.get(chatActor(context), id);
  }

  @Mutation(() => Conversation, { description: "A new conversation, opened by the assistant's opener. A share page passes its visitor id." })
  createConversation(
    @Arg("assistantId", () => ID) assistantId: string,
    @Arg("name", () => String, { nullable: true }) name: string | null,
    @Arg("visitorId", () => String, { nullable: true }) visitorId: string | null,
    @Ctx() context: GraphQLContext,
  ): Promise<Conversation> {
    const actor = chatActor(context);
    return context.services.conversations.create({ ...actor, visitorId: visitorId ?? actor.visitorId }, assistantId, { name });
  }

  @Mutation(() => Conversation)
  renameConversation(@Arg("id", () => ID) id: string, @Arg("name") name: string, @Ctx() context: GraphQLContext): Promise<Conversation> {
    return context.services.conversations.rename(chatActor(context), id, name);
  }

  @Mutation(() => Boolean)
  async deleteConversations(@Arg("ids", () => [ID]) ids: string[], @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.conversations.delete(chatActor(context), ids);
    return true;
  }

  @Mutation(() => AskResult, { description: "Stores the question and returns at once with the answer in status 'searching'; follow it with answerStream." })
  async ask(
    @Arg("conversationId", () => ID) conversationId: string,
    @Arg("question") question: string,
    @Arg("variables", () => GraphQLJSONObject, { nullable: true }) variables: Record<string, unknown> | null,
    @Ctx() context: GraphQLContext,
  ): Promise<AskResult> {
    const { question: asked, answer } = await context.services.conversations.ask(chatActor(context), conversationId, { question, variables: variables ?? undefined });
    return { question: asked, answer };
  }

  @Mutation(() => Message)
  stopAnswer(@Arg("messageId", () => ID) messageId: string, @Ctx() context: GraphQLContext): Promise<Message> {
    return context.services.conversations.stop(chatActor(context), messageId);
  }

  @Mutation(() => Message, { description: "A new answer (a new message id) to the same question, in place of this one." })
  regenerateAnswer(@Arg("messageId", () => ID) messageId: string, @Ctx() context: GraphQLContext): Promise<Message> {
    return context.services.conversations.regenerate(chatActor(context), messageId);
  }

  @Mutation(() => Message)
  rateAnswer(
    @Arg("messageId", () => ID) messageId: string,
    @Arg("thumb", () => String, { nullable: true }) thumb: string | null,
    @Arg("comment", () => String, { nullable: true }) comment: string | null,
    @Ctx() context: GraphQLContext,
  ): Promise<Message> {
    return context.services.conversations.rate(chatActor(context), messageId, thumb, comment);
  }

  @Subscription(() => AnswerEvent, {
    description: "An answer as it streams: first a snapshot of everything so far, then each new piece; resumable (nothing lost or repeated).",
    subscribe: async ({ args, context }: SubscribeResolverData<unknown, { messageId: string }, GraphQLContext>) =>
      context.services.conversations.answerStream(chatActor(context), args.messageId),
  })
  answerStream(@Root() event: StreamEvent, @Arg("messageId", () => ID) _messageId: string): AnswerEvent {
    return {
      messageId: event.messageId,
      seq: event.seq,
      status: event.status,
      delta: event.delta ?? null,
      content: event.content ?? null,
      references: event.reference ? referencesOf(event.reference) : null,
      error: event.error ?? null,
    };
  }
}

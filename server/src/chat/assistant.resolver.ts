import { Arg, Ctx, Field, FieldResolver, Float, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from "type-graphql";
import { Forbidden, Unauthenticated } from "../platform/errors";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { ChatAssistant } from "./assistant.entity";
import type { AssistantInput as ServiceAssistantInput } from "./assistant.service";
import { KNOWLEDGE_BASE_LANGUAGES } from "../knowledge/knowledge-base.service";
import { assistantLanguageOf, defaultTexts, FREEDOM_PRESETS } from "./prompt-defaults";
import type { ChatShare } from "./share.entity";

@InputType()
class PromptVariableInput {
  @Field()
  key: string;

  @Field()
  optional: boolean;
}

@InputType({ description: "Settings of an assistant; every field is optional on update, and create applies the defaults of assistantDefaults." })
class AssistantInput implements ServiceAssistantInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true, description: "A data URL (image/png or image/jpeg); \"\" removes it." })
  avatar?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => String, { nullable: true })
  language?: string | null;

  @Field(() => String, { nullable: true })
  emptyResponse?: string | null;

  @Field(() => String, { nullable: true })
  opener?: string | null;

  @Field(() => [ID], { nullable: true })
  knowledgeBaseIds?: string[] | null;

  @Field(() => String, { nullable: true })
  systemPrompt?: string | null;

  @Field(() => [PromptVariableInput], { nullable: true, description: "knowledge is reserved and always present." })
  promptVariables?: PromptVariableInput[] | null;

  @Field(() => Int, { nullable: true })
  topN?: number | null;

  @Field(() => Int, { nullable: true })
  topK?: number | null;

  @Field(() => Float, { nullable: true })
  similarityThreshold?: number | null;

  @Field(() => Float, { nullable: true, description: "Weight of vector similarity; keyword weight = 1 − this." })
  vectorSimilarityWeight?: number | null;

  @Field(() => String, { nullable: true, description: "name@Provider; \"\" for none." })
  rerankModel?: string | null;

  @Field(() => String, { nullable: true, description: "name@Provider of a chat model." })
  chatModel?: string | null;

  @Field(() => String, { nullable: true, description: "improvise, precise or balance set the four values below; custom keeps them." })
  freedom?: string | null;

  @Field(() => Float, { nullable: true })
  temperature?: number | null;

  @Field(() => Float, { nullable: true })
  topP?: number | null;

  @Field(() => Float, { nullable: true })
  presencePenalty?: number | null;

  @Field(() => Float, { nullable: true })
  frequencyPenalty?: number | null;

  @Field(() => Int, { nullable: true })
  maxTokens?: number | null;

  @Field(() => Boolean, { nullable: true })
  showQuote?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  selfRag?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  multiTurnRefine?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  keywordExtraction?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  tts?: boolean | null;

  @Field(() => [String], { nullable: true, description: "Languages the question is also searched in (RAGFlow's cross_languages)." })
  crossLanguages?: string[] | null;
}

@ObjectType()
class FreedomPreset {
  @Field()
  name: string;

  @Field(() => Float)
  temperature: number;

  @Field(() => Float)
  topP: number;

  @Field(() => Float)
  presencePenalty: number;

  @Field(() => Float)
  frequencyPenalty: number;
}

@ObjectType()
class AssistantKnowledgeBase {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => String, { nullable: true })
  avatar: string | null;

  @Field(() => Int)
  chunkCount: number;
}

@ObjectType()
class AssistantPage {
  @Field(() => [ChatAssistant])
  items: ChatAssistant[];

  @Field(() => Int)
  total: number;
}

@ObjectType({ description: "The texts a new assistant starts with, in one assistant language." })
class AssistantDefaultTexts {
  @Field({ description: "An assistant language: English, Chinese, …" })
  language: string;

  @Field()
  systemPrompt: string;

  @Field()
  opener: string;

  @Field()
  emptyResponse: string;
}

@ObjectType()
class AssistantDefaults {
  @Field({ description: "The language a new assistant of the signed-in user speaks unless told otherwise: that of their interface." })
  language: string;

  @Field(() => [AssistantDefaultTexts], { description: "One per assistant language; a language without texts of its own has the English ones." })
  texts: AssistantDefaultTexts[];

  @Field(() => [FreedomPreset])
  freedomPresets: FreedomPreset[];
}

@ObjectType()
class AssistantShare {
  @Field({ description: "The share token: the shared_id of the share page, and its bearer credential." })
  sharedId: string;

  @Field(() => ID)
  assistantId: string;

  @Field()
  createdAt: Date;
}

@ObjectType({ description: "All a shared chat page sees of its assistant." })
class SharedAssistant {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => String, { nullable: true })
  avatar: string | null;

  @Field()
  opener: string;

  @Field()
  language: string;

  @Field({ description: "Whether answers offer the play button (read aloud by the tenant's TTS model)." })
  tts: boolean;
}

@ObjectType()
class StatPoint {
  @Field({ description: "YYYY-MM-DD (UTC)." })
  date: string;

  @Field(() => Float)
  value: number;
}

@ObjectType()
class ChatStatisticsTotals {
  @Field(() => Int)
  messages: number;

  @Field(() => Int)
  activeUsers: number;

  @Field(() => Float, { description: "Completion tokens per second." })
  tokenOutputSpeed: number;

  @Field(() => Int)
  tokensConsumed: number;

  @Field(() => Float, { description: "Questions per conversation." })
  sessionRounds: number;

  @Field(() => Float, { description: "Thumbs up out of rated answers, 0..1." })
  satisfaction: number;
}

@ObjectType()
class ChatStatistics {
  @Field(() => [StatPoint], { description: "Questions asked per day." })
  messages: StatPoint[];

  @Field(() => [StatPoint])
  activeUsers: StatPoint[];

  @Field(() => [StatPoint])
  tokenOutputSpeed: StatPoint[];

  @Field(() => [StatPoint])
  tokensConsumed: StatPoint[];

  @Field(() => [StatPoint])
  sessionRounds: StatPoint[];

  @Field(() => [StatPoint])
  satisfaction: StatPoint[];

  @Field(() => ChatStatisticsTotals)
  totals: ChatStatisticsTotals;
}

const presentShare = (share: ChatShare): AssistantShare => ({ sharedId: share.id, assistantId: share.assistantId, createdAt: share.createdAt });

@Resolver(() => ChatAssistant)
export class AssistantResolver {
  @FieldResolver(() => [AssistantKnowledgeBase], { description: "Its knowledge bases that still exist." })
  async knowledgeBases(@Root() assistant: ChatAssistant, @Ctx() { services }: GraphQLContext): Promise<AssistantKnowledgeBase[]> {
    const kbs = await services.assistants.knowledgeBases(assistant);
    return kbs.map((kb) => ({ id: kb.id, name: kb.name, avatar: kb.avatar, chunkCount: kb.chunkCount }));
  }

  @Query(() => AssistantPage, { description: "The tenant's assistants, newest first." })
  assistants(
    @Ctx() context: GraphQLContext,
    @Arg("search", () => String, { nullable: true }) search?: string | null,
    @Arg("page", () => Int, { nullable: true }) page?: number | null,
    @Arg("pageSize", () => Int, { nullable: true }) pageSize?: number | null,
  ): Promise<AssistantPage> {
    return context.services.assistants.list(signedIn(context), { search: search ?? undefined, page: page ?? undefined, pageSize: pageSize ?? undefined });
  }

  @Query(() => ChatAssistant)
  assistant(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<ChatAssistant> {
    return context.services.assistants.get(signedIn(context), id);
  }

  @Query(() => AssistantDefaults, { description: "What a new assistant starts with, and the freedom presets." })
  assistantDefaults(@Ctx() context: GraphQLContext): AssistantDefaults {
    const { user } = signedIn(context);
    return {
      language: assistantLanguageOf(user.language),
      texts: KNOWLEDGE_BASE_LANGUAGES.map((language) => ({ language, ...defaultTexts(language) })), freedomPresets: FREEDOM_PRESETS.map((p) => ({ ...p })) };
  }

  @Query(() => AssistantShare, { nullable: true, description: "Null when the assistant is not shared." })
  async assistantShare(@Arg("assistantId", () => ID) assistantId: string, @Ctx() context: GraphQLContext): Promise<AssistantShare | null> {
    const share = await context.services.shares.get(signedIn(context), assistantId);
    return share ? presentShare(share) : null;
  }

  @Query(() => ChatStatistics, { description: "One point per day in [from, to] (YYYY-MM-DD, days of timeZone); without assistantId, all the tenant's assistants." })
  chatStatistics(
    @Ctx() context: GraphQLContext,
    @Arg("from") from: string,
    @Arg("to") to: string,
    @Arg("assistantId", () => ID, { nullable: true }) assistantId?: string | null,
    @Arg("timeZone", () => String, { nullable: true, description: "IANA time zone whose days the points are, e.g. Europe/Paris; UTC when absent." }) timeZone?: string | null,
  ): Promise<ChatStatistics> {
    return context.services.assistants.statistics(signedIn(context), { assistantId, from, to, timeZone });
  }

  @Query(() => SharedAssistant, { description: "The assistant of the share token sent as bearer; for shared chat pages only." })
  async sharedAssistant(@Ctx() { services, principal }: GraphQLContext): Promise<SharedAssistant> {
    if (principal.kind === "anonymous") throw Unauthenticated();
    if (principal.kind !== "share") throw Forbidden("errors.chat.shareOnly");
    const assistant = await services.assistants.usable(principal, principal.assistantId);
    return { id: assistant.id, name: assistant.name, avatar: assistant.icon, opener: assistant.opener, language: assistant.language, tts: assistant.tts };
  }

  @Mutation(() => ChatAssistant)
  createAssistant(@Arg("input", () => AssistantInput) input: AssistantInput, @Ctx() context: GraphQLContext): Promise<ChatAssistant> {
    return context.services.assistants.create(signedIn(context), input);
  }

  @Mutation(() => ChatAssistant)
  updateAssistant(@Arg("id", () => ID) id: string, @Arg("input", () => AssistantInput) input: AssistantInput, @Ctx() context: GraphQLContext): Promise<ChatAssistant> {
    return context.services.assistants.update(signedIn(context), id, input);
  }

  @Mutation(() => Boolean)
  async deleteAssistants(@Arg("ids", () => [ID]) ids: string[], @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.assistants.delete(signedIn(context), ids);
    return true;
  }

  @Mutation(() => AssistantShare, { description: "The assistant's share, created on the first call; needs an API token of the tenant." })
  async shareAssistant(@Arg("assistantId", () => ID) assistantId: string, @Ctx() context: GraphQLContext): Promise<AssistantShare> {
    return presentShare(await context.services.shares.share(signedIn(context), assistantId));
  }

  @Mutation(() => Boolean, { description: "Ends the share: its token stops working at once." })
  revokeAssistantShare(@Arg("assistantId", () => ID) assistantId: string, @Ctx() context: GraphQLContext): Promise<boolean> {
    return context.services.shares.revoke(signedIn(context), assistantId);
  }
}

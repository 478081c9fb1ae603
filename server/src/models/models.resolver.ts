import { MaxLength } from "class-validator";
import { GraphQLJSONObject } from "graphql-scalars";
import { Arg, Ctx, Field, Float, ID, InputType, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { presentParamSpec, ParamSpecType } from "../graphql/param-spec.type";
import type { ModelEntry } from "./model-entry.entity";
import { MODEL_TYPES, type ModelType } from "./model-types";
import type { ProviderDefinition } from "./provider";
import { lexiconPreparation, type PreparationProgress } from "./builtin/lexicon";
import { BUILTIN_PROVIDER } from "./providers/registry";
import { modelId, type AvailableModel, type ConnectionTest, type DefaultModels } from "./models.service";

@ObjectType({ description: "How far the built-in models are in deriving their lexicon from WordNet, which the build does unless its output is missing." })
class BuiltinModelsPreparationType {
  @Field({ description: "wordnet, statistics, concepts or done" })
  step: string;

  @Field(() => Float, { description: "0 to 1" })
  fraction: number;
}

@ObjectType()
class CatalogueModelType {
  @Field()
  name: string;

  @Field()
  type: string;

  @Field(() => Int, { nullable: true })
  maxTokens: number | null;

  @Field()
  vision: boolean;
}

@ObjectType({ description: "A model vendor: what it offers and what it needs to be called." })
class ModelProvider {
  @Field()
  name: string;

  @Field({ description: "Built-in models ship with Cairn and need no entry." })
  builtin: boolean;

  @Field(() => [String])
  modelTypes: string[];

  @Field(() => [ParamSpecType], { description: "The credentials and settings an entry of this provider needs; labels are `models.fields.<key>.label`." })
  credentialFields: ParamSpecType[];

  @Field(() => [CatalogueModelType])
  catalogue: CatalogueModelType[];
}

@ObjectType()
class CredentialValue {
  @Field()
  name: string;

  @Field({ description: "The stored value; a secret is masked." })
  value: string;

  @Field()
  secret: boolean;
}

@ObjectType({ description: "A model the tenant added from a provider." })
class ModelEntryType {
  @Field(() => ID)
  id: string;

  @Field({ description: "name@Provider, the id knowledge bases, assistants and defaults use." })
  modelId: string;

  @Field()
  provider: string;

  @Field()
  modelName: string;

  @Field()
  modelType: string;

  @Field(() => [CredentialValue])
  credentials: CredentialValue[];

  @Field(() => Int, { nullable: true })
  maxTokens: number | null;

  @Field()
  vision: boolean;

  @Field({ description: "Tokens used through this entry so far." })
  usedTokens: number;

  @Field()
  createdAt: Date;
}

@ObjectType()
class AvailableModelType implements AvailableModel {
  @Field()
  id: string;

  @Field()
  provider: string;

  @Field()
  modelName: string;

  @Field(() => String)
  modelType: ModelType;

  @Field()
  builtin: boolean;

  @Field()
  vision: boolean;

  @Field(() => Int, { nullable: true })
  maxTokens: number | null;
}

@ObjectType({ description: "The model used wherever a knowledge base or assistant names none, per type." })
class DefaultModelsType implements DefaultModels {
  @Field()
  chat: string;

  @Field()
  embedding: string;

  @Field()
  rerank: string;

  @Field()
  img2txt: string;

  @Field()
  sequence2txt: string;

  @Field()
  tts: string;
}

@ObjectType()
export class ConnectionTestType implements ConnectionTest {
  @Field()
  ok: boolean;

  @Field(() => Int)
  latencyMs: number;

  @Field(() => String, { nullable: true, description: "Why the test failed, in English." })
  message: string | null;

  @Field(() => String, { nullable: true, description: "The same as a message key of locales, to show it in the user's language." })
  messageKey: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  params: Record<string, unknown> | null;
}

@InputType()
class CredentialInput {
  @Field()
  @MaxLength(64)
  name: string;

  @Field({ description: "For a secret on update, an empty value keeps the stored one." })
  @MaxLength(20000)
  value: string;
}

@InputType()
class ModelEntryInput {
  @Field()
  @MaxLength(64)
  provider: string;

  @Field()
  @MaxLength(255)
  modelName: string;

  @Field({ description: "chat, embedding, rerank, img2txt, sequence2txt or tts" })
  modelType: string;

  @Field(() => [CredentialInput])
  credentials: CredentialInput[];

  @Field(() => Int, { nullable: true })
  maxTokens?: number | null;

  @Field({ nullable: true })
  vision?: boolean;
}

@InputType()
class ModelEntryUpdate {
  @Field(() => [CredentialInput])
  credentials: CredentialInput[];

  @Field(() => Int, { nullable: true })
  maxTokens?: number | null;

  @Field({ nullable: true })
  vision?: boolean;
}

@InputType({ description: "Only the types given change; an empty string goes back to the built-in model." })
class DefaultModelsInput {
  @Field({ nullable: true })
  chat?: string;

  @Field({ nullable: true })
  embedding?: string;

  @Field({ nullable: true })
  rerank?: string;

  @Field({ nullable: true })
  img2txt?: string;

  @Field({ nullable: true })
  sequence2txt?: string;

  @Field({ nullable: true })
  tts?: string;
}

function credentialsOf(list: CredentialInput[]): Record<string, string> {
  return Object.fromEntries(list.map((c) => [c.name, c.value]));
}

function presentProvider(provider: ProviderDefinition): ModelProvider {
  return {
    name: provider.name,
    builtin: provider.name === BUILTIN_PROVIDER,
    modelTypes: [...provider.modelTypes],
    credentialFields: provider.credentialFields.map(presentParamSpec),
    catalogue: (provider.catalogue ?? []).map((m) => ({ name: m.name, type: m.type, maxTokens: m.maxTokens ?? null, vision: m.vision ?? false })),
  };
}

@Resolver()
export class ModelsResolver {
  private present(context: GraphQLContext, entry: ModelEntry): ModelEntryType {
    return {
      id: entry.id,
      modelId: modelId(entry.modelName, entry.provider),
      provider: entry.provider,
      modelName: entry.modelName,
      modelType: entry.modelType,
      credentials: context.services.models.presentCredentials(entry),
      maxTokens: entry.maxTokens,
      vision: entry.vision,
      usedTokens: entry.usedTokens,
      createdAt: entry.createdAt,
    };
  }

  @Query(() => [ModelProvider], { description: "Every provider, the five most used first." })
  modelProviders(@Ctx() context: GraphQLContext): ModelProvider[] {
    signedIn(context);
    return context.services.models.providers().map(presentProvider);
  }

  @Query(() => [ModelEntryType])
  async modelEntries(@Ctx() context: GraphQLContext): Promise<ModelEntryType[]> {
    const entries = await context.services.models.listEntries(signedIn(context));
    return entries.map((entry) => this.present(context, entry));
  }

  @Query(() => [AvailableModelType], { description: "Built-in models and the tenant's entries, optionally of one type." })
  availableModels(@Arg("type", () => String, { nullable: true }) type: string | null, @Ctx() context: GraphQLContext): Promise<AvailableModel[]> {
    const tenantId = signedIn(context).tenantId;
    return context.services.models.availableModels(tenantId, (MODEL_TYPES as readonly string[]).includes(type ?? "") ? (type as ModelType) : undefined);
  }

  @Query(() => BuiltinModelsPreparationType, { nullable: true, description: "Null when the built-in models are ready to embed, rerank and answer." })
  builtinModelsPreparation(@Ctx() context: GraphQLContext): PreparationProgress | null {
    signedIn(context);
    return lexiconPreparation();
  }

  @Query(() => DefaultModelsType)
  defaultModels(@Ctx() context: GraphQLContext): Promise<DefaultModels> {
    return context.services.models.defaults(signedIn(context).tenantId);
  }

  @Mutation(() => ModelEntryType)
  async addModelEntry(@Arg("input") input: ModelEntryInput, @Ctx() context: GraphQLContext): Promise<ModelEntryType> {
    const entry = await context.services.models.addEntry(signedIn(context), { ...input, credentials: credentialsOf(input.credentials) });
    return this.present(context, entry);
  }

  @Mutation(() => ModelEntryType)
  async updateModelEntry(@Arg("id", () => ID) id: string, @Arg("input") input: ModelEntryUpdate, @Ctx() context: GraphQLContext): Promise<ModelEntryType> {
    const entry = await context.services.models.updateEntry(signedIn(context), id, { ...input, credentials: credentialsOf(input.credentials) });
    return this.present(context, entry);
  }

  @Mutation(() => Boolean)
  async deleteModelEntry(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.models.deleteEntry(signedIn(context), id);
    return true;
  }

  @Mutation(() => ConnectionTestType, {
    description: "Calls the model with a tiny request: a stored entry (entryId), one being filled in (input), or a stored entry being edited (both; an empty secret is the stored one).",
  })
  testModelConnection(
    @Arg("entryId", () => ID, { nullable: true }) entryId: string | null,
    @Arg("input", () => ModelEntryInput, { nullable: true }) input: ModelEntryInput | null,
    @Ctx() context: GraphQLContext,
  ): Promise<ConnectionTest> {
    return context.services.models.testConnection(signedIn(context), {
      entryId: entryId ?? undefined,
      input: input ? { ...input, credentials: credentialsOf(input.credentials) } : undefined,
    });
  }

  @Mutation(() => DefaultModelsType)
  setDefaultModels(@Arg("input") input: DefaultModelsInput, @Ctx() context: GraphQLContext): Promise<DefaultModels> {
    return context.services.models.setDefaults(signedIn(context), input);
  }
}

import { Arg, Ctx, Field, Float, ID, InputType, Int, ObjectType, Query, Resolver } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { Chunk } from "../knowledge/chunk.entity";
import { crossLanguagesOf, translateForRetrieval } from "./cross-languages";

@InputType({ description: "A retrieval test: the question and the settings of §9's hybrid similarity." })
class RetrievalInput {
  @Field()
  question: string;

  @Field(() => [ID])
  knowledgeBaseIds: string[];

  @Field(() => [ID], { nullable: true, description: "Only these documents." })
  documentIds?: string[];

  @Field(() => Float, { nullable: true, description: "0..1; default 0.2." })
  similarityThreshold?: number;

  @Field(() => Float, { nullable: true, description: "Weight of vector (or rerank) similarity, 0..1; keyword similarity weighs 1 − this. Default 0.3." })
  vectorSimilarityWeight?: number;

  @Field(() => String, { nullable: true })
  rerankModel?: string | null;

  @Field(() => Int, { nullable: true, description: "Candidates considered; default 1024." })
  topK?: number;

  @Field(() => Int, { nullable: true })
  page?: number;

  @Field(() => Int, { nullable: true })
  pageSize?: number;

  @Field(() => [String], { nullable: true, description: "Languages the question is also searched in, translated by the tenant's default chat model (RAGFlow's cross_languages)." })
  crossLanguages?: string[];
}

@ObjectType()
export class RetrievalHitType {
  @Field(() => Chunk)
  chunk: Chunk;

  @Field()
  documentName: string;

  @Field(() => Float, { description: "Hybrid similarity." })
  similarity: number;

  @Field(() => Float)
  termSimilarity: number;

  @Field(() => Float)
  vectorSimilarity: number;

  @Field({ description: "The text with matched terms in <em>…</em>, HTML-escaped." })
  highlight: string;
}

/** A document and how many of its chunks a result holds (retrieval hits, an answer's citations). */
@ObjectType()
export class DocumentAggregateType {
  @Field(() => ID)
  documentId: string;

  @Field()
  documentName: string;

  @Field(() => Int)
  count: number;
}

@ObjectType({ description: "Milliseconds each stage took." })
class RetrievalTimings {
  @Field(() => Float)
  keywordMs: number;

  @Field(() => Float)
  vectorMs: number;

  @Field(() => Float)
  rerankMs: number;

  @Field(() => Float)
  totalMs: number;
}

@ObjectType({ description: "How a cross-language question was searched." })
class CrossLanguageOutcome {
  @Field({ description: "False when the default chat model is the built-in one, which cannot translate: the question was searched as written." })
  translated: boolean;

  @Field({ description: "What was searched: the translations, one per line." })
  query: string;
}

@ObjectType()
class RetrievalResultType {
  @Field(() => Int, { description: "Hits at or above the threshold, over all pages." })
  total: number;

  @Field(() => [RetrievalHitType])
  hits: RetrievalHitType[];

  @Field(() => [DocumentAggregateType], { description: "Hits per document, most first: the document filter." })
  documents: DocumentAggregateType[];

  @Field(() => RetrievalTimings)
  timings: RetrievalTimings;

  @Field(() => CrossLanguageOutcome, { nullable: true, description: "Present when cross-language retrieval was asked for." })
  crossLanguage?: CrossLanguageOutcome | null;
}

@Resolver()
export class RetrievalResolver {
  @Query(() => RetrievalResultType, { description: "Retrieval as chat and the service API do it, for the testing page." })
  async retrieve(@Ctx() context: GraphQLContext, @Arg("input") input: RetrievalInput): Promise<RetrievalResultType> {
    const principal = signedIn(context);
    const { crossLanguages, ...settings } = input;
    const languages = crossLanguagesOf(crossLanguages);
    const translated = languages.length > 0 ? await translateForRetrieval(context.services.models, principal.tenantId, input.question, languages) : null;
    const result = await context.services.retrieval.retrieve(principal, { ...settings, question: translated?.question ?? input.question, highlight: true });
    return {
      ...result,
      hits: result.hits.map((hit) => ({ ...hit, highlight: hit.highlight ?? "" })),
      crossLanguage: translated && { translated: translated.translated, query: translated.question },
    };
  }
}

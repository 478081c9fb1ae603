import { Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { ChatAssistant } from "../chat/assistant.entity";
import { Flow } from "../flows/flow.entity";
import { Document } from "../knowledge/document.entity";
import { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { signedIn, type GraphQLContext } from "../graphql/context";
import type { DemoState } from "./demo.service";

@ObjectType({ description: "How far the signed-in user's guided demo is: each part once it exists." })
class DemoStatus implements DemoState {
  @Field(() => KnowledgeBase, { nullable: true, description: "The knowledge base of the sample documents." })
  knowledgeBase: KnowledgeBase | null;

  @Field(() => [Document], { description: "The sample documents, with their parsing state." })
  documents: Document[];

  @Field(() => ChatAssistant, { nullable: true, description: "The assistant over the samples: made once the knowledge base holds chunks." })
  assistant: ChatAssistant | null;

  @Field(() => Flow, { nullable: true, description: "A flow from the knowledge-base Q&A template, retrieving from the samples." })
  flow: Flow | null;

  @Field(() => [String], { description: "Questions the samples answer (in English, the samples' language)." })
  questions: string[];

  @Field(() => Int, { description: "How many sample documents the demo ships." })
  sampleCount: number;
}

/** The guided demo over GraphQL: thin over DemoService. */
@Resolver()
export class DemoResolver {
  @Query(() => DemoStatus)
  async demoStatus(@Ctx() context: GraphQLContext): Promise<DemoStatus> {
    const state = await context.services.demo.status(signedIn(context));
    return { ...state, questions: [...state.questions] };
  }

  @Mutation(() => DemoStatus, {
    description: "Makes what is missing of the signed-in user's demo (knowledge base, samples queued for parsing, flow; the assistant once parsed) and returns it; calling it again resumes, never duplicates.",
  })
  async startDemo(@Ctx() context: GraphQLContext): Promise<DemoStatus> {
    const state = await context.services.demo.start(signedIn(context));
    return { ...state, questions: [...state.questions] };
  }
}

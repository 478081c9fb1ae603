import { Arg, Ctx, ID, Mutation, Query, Resolver, Root, Subscription } from "type-graphql";
import type { SubscribeResolverData } from "type-graphql";
import { signedIn, type GraphQLContext } from "../../graphql/context";
import { snapshotThenLive } from "../../platform/runs/event-stream";
import { KbTask, KbTaskKind } from "./kb-task.entity";
import { kbTaskEventOf, kbTaskOf, kbTaskTopic, type KbTaskEvent } from "./kb-task-events";

@Resolver(() => KbTask)
export class KbTaskResolver {
  @Query(() => [KbTask], { description: "The latest RAPTOR and GraphRAG task of a knowledge base (at most one of each kind)." })
  knowledgeBaseTasks(@Ctx() context: GraphQLContext, @Arg("knowledgeBaseId", () => ID) knowledgeBaseId: string): Promise<KbTask[]> {
    return context.services.kbTasks.latest(signedIn(context), knowledgeBaseId);
  }

  @Mutation(() => KbTask, { description: "Queues RAPTOR or GraphRAG over all documents of the knowledge base; its output replaces the previous run's when it succeeds." })
  startKnowledgeBaseTask(
    @Ctx() context: GraphQLContext,
    @Arg("knowledgeBaseId", () => ID) knowledgeBaseId: string,
    @Arg("kind", () => KbTaskKind) kind: KbTaskKind,
  ): Promise<KbTask> {
    return context.services.kbTasks.start(signedIn(context), knowledgeBaseId, kind);
  }

  @Mutation(() => KbTask, { description: "Stops a task that has not ended; the previous run's output stays." })
  cancelKnowledgeBaseTask(@Ctx() context: GraphQLContext, @Arg("id", () => ID) id: string): Promise<KbTask> {
    return context.services.kbTasks.cancel(signedIn(context), id);
  }

  @Subscription(() => KbTask, {
    description: "RAPTOR and GraphRAG progress of a knowledge base: first its latest tasks as they are now, then every change.",
    subscribe: async ({ args, context }: SubscribeResolverData<unknown, { knowledgeBaseId: string }, GraphQLContext>) => {
      const principal = signedIn(context);
      return snapshotThenLive<KbTaskEvent>(context.services.platform.pubsub, kbTaskTopic(args.knowledgeBaseId), async () =>
        (await context.services.kbTasks.latest(principal, args.knowledgeBaseId)).map(kbTaskEventOf),
      );
    },
  })
  knowledgeBaseTaskProgress(@Root() event: KbTaskEvent, @Arg("knowledgeBaseId", () => ID) _knowledgeBaseId: string): KbTask {
    return kbTaskOf(event);
  }
}

import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from "type-graphql";
import { WorkKind } from "../bin/work-kind";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { Work, WorkPage, WorkPreview } from "./work.types";

/** My space over GraphQL: the list, and a work's larger preview only when a client asks for it (the slides). */
@Resolver(() => Work)
export class WorksResolver {
  @Query(() => WorkPage, { description: "What the user made and may read (knowledge bases, assistants, flows, files…), live ones only, newest activity first." })
  works(
    @Ctx() context: GraphQLContext,
    @Arg("kind", () => WorkKind, { nullable: true }) kind: WorkKind | null,
    @Arg("search", () => String, { nullable: true, description: "Part of a name, any case." }) search: string | null,
    @Arg("page", () => Int, { nullable: true }) page: number | null,
    @Arg("pageSize", () => Int, { nullable: true, description: "24 by default, at most 100." }) pageSize: number | null,
  ): Promise<WorkPage> {
    return context.services.works.list(signedIn(context), { kind, search, page, pageSize });
  }

  @Query(() => [WorkKind], { description: "The kinds my space lists, in the order of its filter." })
  workKinds(@Ctx() context: GraphQLContext): WorkKind[] {
    signedIn(context);
    return context.services.works.kinds;
  }

  @FieldResolver(() => WorkPreview, { description: "A larger look at the work (a flow's drawing, a knowledge base's documents, an assistant's last conversation), read only when asked." })
  preview(@Root() work: Work, @Ctx() context: GraphQLContext): Promise<WorkPreview> {
    return context.services.works.preview(signedIn(context), work.kind, work.id);
  }
}

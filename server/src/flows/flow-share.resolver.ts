import { Arg, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { Forbidden, Unauthenticated } from "../platform/errors";
import { fieldsOf } from "./components/core/begin";
import type { FlowShare } from "./flow-share.entity";

/** Sharing flows over GraphQL (spec §2, API publishing): the publish dialog shares and revokes, the share page reads its flow. */

@ObjectType()
class FlowShareType {
  @Field({ description: "The share token: the shared_id of the share page (/chat/share?shared_id=…&from=agent), and its bearer credential." })
  sharedId: string;

  @Field(() => ID)
  flowId: string;

  @Field()
  createdAt: Date;
}

@ObjectType({ description: "An input Begin asks for before the first message." })
class SharedFlowInput {
  @Field()
  key: string;

  @Field()
  name: string;

  @Field({ description: "line, paragraph, options, file, integer or boolean." })
  type: string;

  @Field()
  optional: boolean;

  @Field(() => [String])
  options: string[];
}

@ObjectType({ description: "All a shared flow's page sees of its flow." })
class SharedFlow {
  @Field(() => ID)
  id: string;

  @Field()
  title: string;

  @Field(() => String, { nullable: true })
  avatar: string | null;

  @Field({ description: "Begin's greeting, shown before the first message." })
  prologue: string;

  @Field(() => [SharedFlowInput])
  inputs: SharedFlowInput[];
}

const presentShare = (share: FlowShare): FlowShareType => ({ sharedId: share.id, flowId: share.flowId, createdAt: share.createdAt });

@Resolver()
export class FlowShareResolver {
  @Query(() => FlowShareType, { nullable: true, description: "Null when the flow is not shared." })
  async flowShare(@Arg("flowId", () => ID) flowId: string, @Ctx() context: GraphQLContext): Promise<FlowShareType | null> {
    const share = await context.services.flowShares.get(signedIn(context), flowId);
    return share ? presentShare(share) : null;
  }

  @Query(() => SharedFlow, { description: "The flow of the share token sent as bearer; for shared flow pages only." })
  async sharedFlow(@Ctx() { services, principal }: GraphQLContext): Promise<SharedFlow> {
    if (principal.kind === "anonymous") throw Unauthenticated();
    if (principal.kind !== "flowShare") throw Forbidden("flow.publish.errors.shareOnly");
    const flow = await services.flows.accessible(principal, principal.flowId, "read");
    const begin = Object.values(flow.dsl.components).find((component) => component.obj.component_name === "Begin");
    const params = begin?.obj.params ?? {};
    return { id: flow.id, title: flow.title, avatar: flow.avatar, prologue: typeof params.prologue === "string" ? params.prologue : "", inputs: fieldsOf(params) };
  }

  @Mutation(() => FlowShareType, { description: "The flow's share, created on the first call; needs an API token of the tenant." })
  async shareFlow(@Arg("flowId", () => ID) flowId: string, @Ctx() context: GraphQLContext): Promise<FlowShareType> {
    return presentShare(await context.services.flowShares.share(signedIn(context), flowId));
  }

  @Mutation(() => Boolean, { description: "Ends the flow's share: its token stops working at once." })
  revokeFlowShare(@Arg("flowId", () => ID) flowId: string, @Ctx() context: GraphQLContext): Promise<boolean> {
    return context.services.flowShares.revoke(signedIn(context), flowId);
  }
}

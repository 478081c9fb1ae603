import { GraphQLJSON, GraphQLJSONObject } from "graphql-scalars";
import { Arg, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, Subscription } from "type-graphql";
import type { SubscribeResolverData } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import type { SequencedRunEvent } from "./events";
import type { FlowActor } from "./flow-run.service";
import { FlowRun, FlowRunStep } from "./flow-run.entity";
import { FlowSession } from "./flow-session.entity";
import { ConnectionTestType } from "../models/models.resolver";
import type { ConnectionTest } from "../models/models.service";
import { inputFileText } from "./input-file-text";

/**
 * Runs, sessions and debugging over GraphQL, for the editor's run drawer and a shared flow's page (whose visitor
 * starts, follows and stops runs in their own sessions): thin over FlowRunService.
 */

/** A member, or a shared flow's visitor with the visitor id their page sends; the policies decide what each reaches. */
function flowActor(context: GraphQLContext): FlowActor {
  if (context.principal.kind === "flowShare") return { ...context.principal, visitorId: context.visitorId ?? undefined };
  return signedIn(context);
}

/** A visitor sees what the flow said, not what each component read and gave (its prompts, its retrievals). */
const seesInternals = (context: GraphQLContext) => context.principal.kind !== "flowShare";

@ObjectType({ description: "A message of a session's conversation." })
class FlowSessionMessageType {
  @Field(() => ID)
  id: string;

  @Field({ description: "user or assistant." })
  role: string;

  @Field()
  content: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "The answer's citations." })
  reference: Record<string, unknown> | null;

  @Field(() => ID)
  runId: string;

  @Field()
  createdAt: string;
}

@ObjectType()
class StartFlowRunResult {
  @Field(() => FlowRun)
  run: FlowRun;

  @Field(() => FlowSession)
  session: FlowSession;
}

@InputType()
class StartFlowRunInput {
  @Field(() => String, { nullable: true, description: "The user's message; none on the first turn (Begin speaks first)." })
  message?: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "Begin's input values by key." })
  inputs?: Record<string, unknown> | null;

  @Field(() => ID, { nullable: true, description: "Continue this session (answer its interaction); none opens a new one." })
  sessionId?: string | null;

  @Field(() => String, { nullable: true, description: "Re-run the session's flow from this component, keeping what ran before it." })
  fromComponent?: string | null;
}

@InputType()
class DebugFlowComponentInput {
  @Field()
  componentId: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "Params to use over the saved ones (the form being edited)." })
  params?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: "Its default input." })
  input?: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "A text for each reference its texts hold, by reference (begin@lang, Retrieval:a, sys.query)." })
  values?: Record<string, string> | null;
}

@ObjectType({ description: "What one component did on the values given; nothing was stored." })
class DebugFlowComponentResult {
  @Field()
  componentId: string;

  @Field()
  componentName: string;

  @Field(() => GraphQLJSONObject, { nullable: true })
  output: Record<string, unknown> | null;

  @Field({ description: "What it said to the user." })
  said: string;

  @Field(() => String, { nullable: true })
  error: string | null;

  @Field(() => Int)
  elapsedMs: number;

  @Field(() => Int)
  tokens: number;
}

@ObjectType({ description: "The text of a file given for a Begin `file` input." })
class FlowInputFileText {
  @Field()
  name: string;

  @Field()
  text: string;
}

@ObjectType({ description: "One event of a run, numbered from 1; `type` says which fields it fills." })
class FlowRunEventType {
  @Field(() => ID)
  runId: string;

  @Field(() => Int)
  seq: number;

  @Field()
  at: string;

  @Field({ description: "run_started, node_started, node_finished, message, message_end, waiting_for_input, run_finished, run_failed or run_cancelled." })
  type: string;

  @Field(() => ID, { nullable: true })
  sessionId: string | null;

  @Field(() => String, { nullable: true })
  componentId: string | null;

  @Field(() => String, { nullable: true })
  componentName: string | null;

  @Field(() => String, { nullable: true, description: "message: the piece of the answer added." })
  delta: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: "node_finished: what the component read." })
  inputs: unknown;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "node_finished: what it gave." })
  output: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: "node_finished, run_failed: the failure, translated." })
  error: string | null;

  @Field(() => Int, { nullable: true })
  elapsedMs: number | null;

  @Field(() => Int, { nullable: true })
  tokens: number | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "message_end: the answer's citations." })
  reference: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: "run_finished: waiting or finished." })
  status: string | null;
}

function presentEvent(runId: string, event: SequencedRunEvent, internals: boolean): FlowRunEventType {
  const fields = event as Partial<Record<string, unknown>>;
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : null);
  const number = (key: string) => (typeof fields[key] === "number" ? Math.round(fields[key] as number) : null);
  return {
    runId,
    seq: event.seq,
    at: event.at,
    type: event.type,
    sessionId: text("sessionId"),
    componentId: text("componentId"),
    componentName: text("componentName"),
    delta: text("delta"),
    inputs: internals ? (fields.inputs ?? null) : null,
    output: internals ? ((fields.output as Record<string, unknown> | undefined) ?? null) : null,
    error: text("error"),
    elapsedMs: number("elapsedMs"),
    tokens: number("tokens"),
    reference: (fields.reference as Record<string, unknown> | undefined) ?? null,
    status: text("status"),
  };
}

@Resolver(() => FlowSession)
export class FlowSessionResolver {
  @FieldResolver(() => [FlowSessionMessageType])
  messages(@Root() session: FlowSession): FlowSessionMessageType[] {
    return session.messages.map((m) => ({ ...m, reference: (m.reference as unknown as Record<string, unknown>) ?? null }));
  }

  @Query(() => [FlowSession], { description: "A flow's sessions, newest first; on a shared flow's page, only its visitor's." })
  flowSessions(
    @Arg("flowId", () => ID) flowId: string,
    @Arg("page", () => Int, { nullable: true }) page: number | null,
    @Arg("pageSize", () => Int, { nullable: true }) pageSize: number | null,
    @Ctx() context: GraphQLContext,
  ): Promise<FlowSession[]> {
    return context.services.flowRuns.listSessions(flowActor(context), flowId, { page: page ?? undefined, pageSize: Math.min(pageSize ?? 30, 100) });
  }

  @Query(() => FlowSession)
  flowSession(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<FlowSession> {
    return context.services.flowRuns.session(flowActor(context), id);
  }

  @Mutation(() => [ID], { description: "Deletes sessions of a flow with their runs; the ids that were deleted." })
  deleteFlowSessions(@Arg("flowId", () => ID) flowId: string, @Arg("ids", () => [ID]) ids: string[], @Ctx() context: GraphQLContext): Promise<string[]> {
    return context.services.flowRuns.deleteSessions(signedIn(context), flowId, ids);
  }
}

@Resolver(() => FlowRun)
export class FlowRunResolver {
  @FieldResolver(() => [FlowRunStep], { description: "What each component did, in order." })
  async steps(@Root() run: FlowRun, @Ctx() context: GraphQLContext): Promise<FlowRunStep[]> {
    if (!seesInternals(context)) return [];
    const loaded = (run as FlowRun & { loadedSteps?: FlowRunStep[] }).loadedSteps;
    if (loaded) return loaded;
    return (await context.services.flowRuns.stepsOf([run.id])).get(run.id) ?? [];
  }

  @Mutation(() => StartFlowRunResult, { description: "Starts a turn (in a new session unless one is given) and returns at once; follow it with flowRunEvents." })
  startFlowRun(@Arg("flowId", () => ID) flowId: string, @Arg("input", () => StartFlowRunInput) input: StartFlowRunInput, @Ctx() context: GraphQLContext): Promise<StartFlowRunResult> {
    return context.services.flowRuns.start(flowActor(context), flowId, input);
  }

  @Mutation(() => FlowRun, { description: "A queued run never starts; a running one stops where it is." })
  cancelFlowRun(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<FlowRun> {
    return context.services.flowRuns.cancel(flowActor(context), id);
  }

  @Query(() => [FlowRun], { description: "A flow's runs (or one session's), newest first." })
  async flowRuns(
    @Arg("flowId", () => ID) flowId: string,
    @Arg("sessionId", () => ID, { nullable: true }) sessionId: string | null,
    @Arg("page", () => Int, { nullable: true }) page: number | null,
    @Arg("pageSize", () => Int, { nullable: true }) pageSize: number | null,
    @Ctx() context: GraphQLContext,
  ): Promise<FlowRun[]> {
    const runs = await context.services.flowRuns.list(signedIn(context), flowId, { sessionId, page: page ?? undefined, pageSize: pageSize ?? undefined });
    const steps = await context.services.flowRuns.stepsOf(runs.map((r) => r.id));
    return runs.map((r) => Object.assign(r, { loadedSteps: steps.get(r.id) ?? [] }));
  }

  @Query(() => FlowRun)
  flowRun(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<FlowRun> {
    return context.services.flowRuns.get(flowActor(context), id);
  }

  @Mutation(() => DebugFlowComponentResult, { description: "Runs one component of the saved flow on the values given; nothing is stored and the flow does not change." })
  async debugFlowComponent(
    @Arg("flowId", () => ID) flowId: string,
    @Arg("input", () => DebugFlowComponentInput) input: DebugFlowComponentInput,
    @Ctx() context: GraphQLContext,
  ): Promise<DebugFlowComponentResult> {
    const result = await context.services.flowRuns.debug(signedIn(context), flowId, input);
    return { ...result, output: (result.output as unknown as Record<string, unknown>) ?? null };
  }

  @Mutation(() => ConnectionTestType, { description: "The ExeSQL node's Test button: connects with the form's params over the saved ones (an empty password is the saved one, at the saved address) and runs SELECT 1." })
  testFlowDatabaseConnection(
    @Arg("flowId", () => ID) flowId: string,
    @Arg("componentId") componentId: string,
    @Arg("params", () => GraphQLJSONObject) params: Record<string, unknown>,
    @Ctx() context: GraphQLContext,
  ): Promise<ConnectionTest> {
    return context.services.flowRuns.testDatabase(signedIn(context), flowId, componentId, params);
  }

  @Mutation(() => FlowInputFileText, { description: "The text of a file for a Begin `file` input, parsed as a document is (at most 10 MB, no OCR); nothing is stored." })
  async flowInputFileText(
    @Arg("name") name: string,
    @Arg("content", { description: "The file's bytes, base64." }) content: string,
    @Ctx() context: GraphQLContext,
  ): Promise<FlowInputFileText> {
    signedIn(context);
    // Not cancelled with the request: the parse processes bound each file's time themselves.
    return { name, text: await inputFileText(context.services.parsers, { name, data: Buffer.from(content, "base64") }, new AbortController().signal) };
  }

  @Subscription(() => FlowRunEventType, {
    description: "A run's events from the first (or after `after`, when reconnecting), then live, until its last: a late watcher misses nothing.",
    subscribe: async ({ args, context }: SubscribeResolverData<unknown, { runId: string; after?: number | null }, GraphQLContext>) =>
      context.services.flowRuns.events(flowActor(context), args.runId, args.after),
  })
  flowRunEvents(
    @Root() event: SequencedRunEvent,
    @Arg("runId", () => ID) runId: string,
    @Arg("after", () => Int, { nullable: true }) _after: number | null,
    @Ctx() context: GraphQLContext,
  ): FlowRunEventType {
    return presentEvent(runId, event, seesInternals(context));
  }
}

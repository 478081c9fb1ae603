import { GraphQLJSON, GraphQLJSONObject } from "graphql-scalars";
import { Arg, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { presentParamSpec, ParamSpecType } from "../graphql/param-spec.type";
import { componentNamed, COMPONENTS } from "./components";
import { componentText, type ComponentDefinition } from "./component";
import { Flow } from "./flow.entity";
import { FlowVersion } from "./flow-version.entity";
import { importFlow } from "./dsl-format";
import { validateFlow } from "./engine";
import { linkFromDrawing } from "./drawing";
import { drawingOutline } from "./drawing-outline";
import { localeOf } from "./flow.service";
import { localizedMessage } from "../platform/messages";
import { maskSecrets } from "./flow-secrets";

/** Flows over GraphQL, for the agent list and the editor: thin over FlowService. */

@InputType({ description: "A flow's fields; on update only those given change." })
class FlowInput {
  @Field({ nullable: true })
  title?: string;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => String, { nullable: true, description: "A data URL (image/png or image/jpeg)." })
  avatar?: string | null;

  @Field({ nullable: true, description: "me or team." })
  permission?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: "The graph (RAGFlow's canvas DSL)." })
  dsl?: Record<string, unknown> | null;
}

@InputType()
class CreateFlowInput extends FlowInput {
  @Field(() => ID, { nullable: true, description: "Start from this template (flowTemplates); none and no dsl: a blank flow (Begin and an Answer)." })
  templateId?: string | null;
}

@InputType()
class UpdateFlowInput extends FlowInput {
  @Field(() => Date, { nullable: true, description: "The updatedAt the editor last read: a save over a newer one elsewhere is refused (CONFLICT)." })
  baseUpdatedAt?: Date | null;

  @Field({ nullable: true, description: "An editor's autosave: the same person's saves within FLOW_VERSION_MINUTES of the newest version refine it instead of adding one." })
  autosave?: boolean;
}

@ObjectType()
class FlowPage {
  @Field(() => Int)
  total: number;

  @Field(() => [Flow])
  items: Flow[];
}

@ObjectType()
class ImportFlowResult {
  @Field(() => Flow)
  flow: Flow;

  @Field(() => [String], { description: "What the import changed or left out (run state dropped, a layout built…), translated." })
  notes: string[];
}

@ObjectType({ description: "A problem of a flow, on the component (and field) at fault." })
class FlowProblemType {
  @Field(() => String, { nullable: true, description: "None: the flow as a whole (no Begin)." })
  componentId: string | null;

  @Field(() => String, { nullable: true, description: "The param at fault, dotted." })
  field: string | null;

  @Field()
  messageKey: string;

  @Field(() => GraphQLJSONObject, { nullable: true })
  params: Record<string, unknown> | null;

  @Field({ description: "The message in the user's language." })
  message: string;
}

@ObjectType({ description: "A flow to start from; its title and description are message keys." })
class FlowTemplateType {
  @Field(() => ID)
  id: string;

  @Field({ description: "Message key." })
  title: string;

  @Field({ description: "Message key." })
  description: string;

  @Field(() => [String], { description: "knowledgeBase, apiKey, internet or database." })
  needs: string[];

  @Field(() => GraphQLJSONObject)
  dsl: Record<string, unknown>;
}

@ObjectType()
class FlowOutputSpecType {
  @Field()
  name: string;

  @Field({ description: "Message key." })
  label: string;

  @Field({ description: "text, list, json, number or boolean." })
  type: string;
}

@ObjectType({ description: "An outgoing port of a routing component: the edge's sourceHandle and where its params send it." })
class FlowRoutePortType {
  @Field({ description: "The edge's sourceHandle (a category's name, \"Case 1\", \"end_cpn_id\", \"yes\")." })
  handle: string;

  @Field(() => String, { nullable: true, description: "The component id it leads to; none while not connected." })
  target: string | null;

  @Field({ description: "Message key of its label, or the user's own text when literal." })
  label: string;

  @Field()
  literal: boolean;
}

@ObjectType({ description: "A flow component, self-described: the editor draws its palette entry and form from this." })
class FlowComponentType {
  @Field({ description: "RAGFlow's component_name." })
  name: string;

  @Field()
  category: string;

  @Field({ description: "A react-icons name." })
  icon: string;

  @Field({ description: "Message key of its name." })
  label: string;

  @Field({ description: "Message key of what it does (and whether it needs a key or an outside service)." })
  description: string;

  @Field(() => [String], { description: "apiKey, internet, database." })
  needs: string[];

  @Field(() => [String], { description: "Components it may not connect to." })
  restrictedTargets: string[];

  @Field(() => [FlowOutputSpecType], { description: "Named outputs beyond the default \"output\"." })
  outputs: FlowOutputSpecType[];

  @Field(() => [ParamSpecType])
  params: ParamSpecType[];

  @Field({ description: "It routes the run to one of its ports (Switch, Categorize, Relevant); the ports follow from its params." })
  routing: boolean;

  @Field({ description: "It ends a turn and waits for the user (Answer)." })
  interaction: boolean;

  @Field({ description: "Shown in the editor only, never run (Note)." })
  editorOnly: boolean;

  @Field({ description: "It holds child components (Iteration)." })
  container: boolean;
}

function presentComponent(c: ComponentDefinition): FlowComponentType {
  return {
    name: c.name,
    category: c.category,
    icon: c.icon,
    label: componentText.label(c.name),
    description: componentText.description(c.name),
    needs: [...(c.needs ?? [])],
    restrictedTargets: [...(c.restrictedTargets ?? [])],
    outputs: (c.outputs ?? []).map((o) => ({ ...o })),
    params: c.params.map(presentParamSpec),
    routing: Boolean(c.routes),
    interaction: Boolean(c.interaction),
    editorOnly: Boolean(c.editorOnly),
    container: Boolean(c.container),
  };
}

const DSL_FIELD = { description: "The graph in RAGFlow's canvas DSL (flows/dsl.ts), its secrets masked (flow-secrets.ts)." };

@Resolver(() => Flow)
export class FlowResolver {
  @FieldResolver(() => GraphQLJSONObject, DSL_FIELD)
  dsl(@Root() flow: Flow): Record<string, unknown> {
    return { ...maskSecrets(flow.dsl) };
  }

  @Query(() => FlowPage, { description: "The flows the user may see (their tenant's and those shared with their team), newest save first." })
  flows(
    @Ctx() context: GraphQLContext,
    @Arg("search", () => String, { nullable: true }) search: string | null,
    @Arg("page", () => Int, { nullable: true }) page: number | null,
    @Arg("pageSize", () => Int, { nullable: true }) pageSize: number | null,
    @Arg("orderBy", () => String, { nullable: true, description: "updatedAt (default), createdAt or title." }) orderBy: string | null,
    @Arg("desc", () => Boolean, { nullable: true }) desc: boolean | null,
  ): Promise<FlowPage> {
    const order = orderBy === "createdAt" || orderBy === "title" ? orderBy : "updatedAt";
    return context.services.flows.list(signedIn(context), { search: search ?? undefined, page: page ?? undefined, pageSize: Math.min(pageSize ?? 30, 100), orderBy: order, desc: desc ?? undefined });
  }

  @FieldResolver(() => GraphQLJSONObject, { description: "The drawing as a thumbnail needs it: dsl.graph's nodes (id, type, position, size, data.label) and edges (source, target), without the forms." })
  outline(@Root() flow: Flow): Record<string, unknown> {
    return { ...drawingOutline(flow.dsl) };
  }

  @Query(() => Flow)
  flow(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<Flow> {
    return context.services.flows.get(signedIn(context), id);
  }

  @Query(() => [FlowTemplateType])
  flowTemplates(@Ctx() context: GraphQLContext): FlowTemplateType[] {
    return context.services.flows.templates.map((t) => ({ id: t.id, title: t.title, description: t.description, needs: [...t.needs], dsl: t.dsl as unknown as Record<string, unknown> }));
  }

  @Query(() => [FlowComponentType], { description: "Every component, in the palette's order." })
  flowComponents(): FlowComponentType[] {
    return COMPONENTS.map(presentComponent);
  }

  @Query(() => [FlowRoutePortType], { description: "The ports a routing component has with these params (Switch cases, Categorize categories); none for others." })
  flowComponentPorts(@Arg("name") name: string, @Arg("params", () => GraphQLJSONObject) params: Record<string, unknown>): FlowRoutePortType[] {
    const routes = componentNamed(name)?.routes;
    if (!routes) return [];
    try {
      return routes(params).map((port) => ({ handle: port.handle, target: port.target, label: port.label, literal: Boolean(port.literal) }));
    } catch {
      return []; // params too broken to read: validateFlow names the problem
    }
  }

  @Mutation(() => Flow, { description: "A new flow: blank (Begin and an Answer), from a template, or with the graph given." })
  createFlow(@Arg("input", () => CreateFlowInput) input: CreateFlowInput, @Ctx() context: GraphQLContext): Promise<Flow> {
    return context.services.flows.create(signedIn(context), input);
  }

  @Mutation(() => Flow, { description: "A save (the editor autosaves): keeps a version when the graph or title changed; read updatedAt for \"Autosaved <time>\"." })
  updateFlow(@Arg("id", () => ID) id: string, @Arg("input", () => UpdateFlowInput) input: UpdateFlowInput, @Ctx() context: GraphQLContext): Promise<Flow> {
    return context.services.flows.update(signedIn(context), id, input);
  }

  @Mutation(() => Flow)
  duplicateFlow(@Arg("id", () => ID) id: string, @Arg("title", () => String, { nullable: true }) title: string | null, @Ctx() context: GraphQLContext): Promise<Flow> {
    return context.services.flows.duplicate(signedIn(context), id, title);
  }

  @Mutation(() => Boolean)
  async deleteFlow(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.flows.delete(signedIn(context), id);
    return true;
  }

  @Query(() => GraphQLJSONObject, { description: "The flow as a file (RAGFlow's DSL, title and description beside it) that importFlow, and RAGFlow, read back." })
  exportFlow(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<Record<string, unknown>> {
    return context.services.flows.export(signedIn(context), id);
  }

  @Mutation(() => ImportFlowResult, { description: "A flow from a file: an export, a RAGFlow template or canvas DSL of v0.14 or v0.20+ (as JSON or its text)." })
  importFlow(
    @Arg("file", () => GraphQLJSON) file: unknown,
    @Arg("title", () => String, { nullable: true, description: "Default: the file's title, made unique." }) title: string | null,
    @Ctx() context: GraphQLContext,
  ): Promise<ImportFlowResult> {
    return context.services.flows.import(signedIn(context), file, title);
  }

  @Query(() => [FlowProblemType], { description: "What keeps this graph from running as drawn, checked with the components' own descriptions; empty when it may run." })
  validateFlow(@Arg("dsl", () => GraphQLJSONObject) dsl: Record<string, unknown>, @Ctx() context: GraphQLContext): FlowProblemType[] {
    const locale = localeOf(signedIn(context));
    return validateFlow(linkFromDrawing(importFlow(dsl).dsl)).map((p) => ({
      componentId: p.componentId ?? null,
      field: p.field ?? null,
      messageKey: p.messageKey,
      params: p.params ?? null,
      message: localizedMessage(locale, p.messageKey, p.params),
    }));
  }

  @Query(() => [FlowVersion], { description: "Newest first." })
  flowVersions(@Arg("flowId", () => ID) flowId: string, @Ctx() context: GraphQLContext): Promise<FlowVersion[]> {
    return context.services.flows.listVersions(signedIn(context), flowId);
  }

  @Query(() => FlowVersion)
  flowVersion(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<FlowVersion> {
    return context.services.flows.version(signedIn(context), id);
  }

  @Mutation(() => Flow, { description: "Puts a version's graph back (itself a save, so it keeps a version)." })
  restoreFlowVersion(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<Flow> {
    return context.services.flows.restoreVersion(signedIn(context), id);
  }
}

/** A version shows its graph as the flow does: its secrets masked. */
@Resolver(() => FlowVersion)
export class FlowVersionResolver {
  @FieldResolver(() => GraphQLJSONObject, DSL_FIELD)
  dsl(@Root() version: FlowVersion): Record<string, unknown> {
    return { ...maskSecrets(version.dsl) };
  }
}

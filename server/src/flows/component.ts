import type { MessageReference } from "../chat/message.entity";
import type { Locale } from "../platform/messages";
import type { ParamIssue, ParamSpec } from "../platform/param-spec";
import type { RetrievalHit } from "../retrieval/retrieval.service";
import type { FlowDsl } from "./dsl";
import type { FlowPorts } from "./ports";

/**
 * A flow component is a self-describing module (after n8n's INodeTypeDescription): one file in components/
 * and one line in components/index.ts. Its description is all the engine and the editor know of it — the
 * palette entry, the form (drawn from `params` by the client's ParamForm), the connection rules, the checks
 * run before a flow runs — and `run` is its work.
 *
 * Texts are message keys derived from the name (`flow.components.<name>.label`, `.description`, and
 * `.params.<key>` unless a spec names a shared key), present in every locale.
 */

/** The palette's groups, in the editor's order. */
export const COMPONENT_CATEGORIES = ["core", "knowledge", "tools", "search", "data", "translation"] as const;
export type ComponentCategory = (typeof COMPONENT_CATEGORIES)[number];

/** What a component needs beyond Cairn, so that the palette can say so (a key, the internet, a database). */
export type ComponentNeed = "apiKey" | "internet" | "database";

/** One outgoing port of a routing component (Switch, Categorize, Relevant): its handle and the target its params name. */
export interface RoutePort {
  /** The edge's `sourceHandle` (a category's name, "Case 1", "end_cpn_id", "yes"). */
  handle: string;
  /** The component id this port leads to, as the params hold it (null: not connected yet). */
  target: string | null;
  /** Message key of the port's label, or a user's text (a category's name) when `literal`. */
  label: string;
  literal?: boolean;
}

/** A named output other components may reference as `{component_id@name}`; every component has "output". */
export interface OutputSpec {
  name: string;
  /** Message key. */
  label: string;
  type: "text" | "list" | "json" | "number" | "boolean";
}

export interface ComponentDefinition {
  /** RAGFlow's `component_name` ("Generate", "Categorize", "DuckDuckGo"). */
  name: string;
  category: ComponentCategory;
  /** A react-icons name the editor shows (e.g. "LuBrain"). */
  icon: string;
  params: readonly ParamSpec[];
  /** Outputs beyond the default "output" text. */
  outputs?: readonly OutputSpec[];
  needs?: readonly ComponentNeed[];
  /**
   * The params that say where its secret params are sent (ExeSQL's host, Invoke's URL): when one changes, a stored
   * secret is not kept (flow-secrets.ts), so that whoever may edit the flow cannot have it sent to their own server.
   */
  secretsGoTo?: readonly string[];
  /** Component names this one may not connect to (RAGFlow's RestrictedUpstreamMap, keyed by the source). */
  restrictedTargets?: readonly string[];
  /** A routing component sends the run to the one port its output's `next` names; others go to every downstream. */
  routes?: (params: Record<string, unknown>) => RoutePort[];
  /** The params with one port (a `RoutePort.handle`) leading to `target`, or to nothing: the editor draws routes as edges. */
  connect?: (params: Record<string, unknown>, handle: string, target: string | null) => Record<string, unknown>;
  /** The turn's boundary: the run speaks the answer and waits for the user (Answer, "Interact"). */
  interaction?: boolean;
  /** Shown in the editor only, never run (Note). */
  editorOnly?: boolean;
  /** Holds child components (`parent_id`) that it runs itself (Iteration). */
  container?: boolean;
  /** Checks that need the whole flow (a route's target exists, a reference names a component), after the params' own. */
  checkInFlow?: (params: Record<string, unknown>, flow: FlowDsl, componentId: string) => ParamIssue[];
  run(context: ComponentContext): Promise<ComponentOutput>;
}

/** A message of the conversation a flow holds with its user. */
export interface FlowMessage {
  role: "user" | "assistant";
  content: string;
}

/** A value a component read, shown in its node's popover (RAGFlow's `inputs`). */
export interface ResolvedInput {
  component_id: string;
  content: string;
}

/** One item of a list output (a retrieval hit, a search result, a SQL row). */
export interface OutputItem {
  content: string;
  title?: string;
  url?: string;
  /** A retrieval hit, for citations. */
  hit?: RetrievalHit;
}

export interface ComponentOutput {
  /** The text other components read (`{component_id}`, `{component_id@output}`, the default input). */
  content: string;
  /** The items of a list output; `content` is their text joined. */
  items?: OutputItem[];
  /** Named outputs beyond "output" (`{component_id@name}`). */
  values?: Record<string, unknown>;
  /** The citations of an answer. */
  reference?: MessageReference;
  /** A routing component: the downstream ids to follow (empty: this branch stops). */
  next?: string[];
  /** The content was streamed to the user as it was made (`say`), so an Answer does not repeat it. */
  spoken?: boolean;
  /** Things the user should know about this step (a substituted model, an empty retrieval), translated. */
  notes?: string[];
}

export interface ComponentContext {
  readonly componentId: string;
  /** The params, checked, with every default filled in. */
  readonly params: Record<string, unknown>;
  /** The default input (RAGFlow's `get_input`): the output of the most recent upstream component, or the user's message after an Answer. */
  readonly input: string;
  /** The input variables (`query` references) resolved, in order. */
  readonly inputs: ResolvedInput[];
  /** The conversation so far, the current user message included; a component applies its own history window. */
  readonly history: FlowMessage[];
  /** The latest user message (`sys.query`). */
  readonly question: string;
  /** The outputs of the Retrieval components run in this turn (Generate cites them). */
  readonly retrievals: ComponentOutput[];
  /** Fills `{component_id}`, `{component_id@name}`, `{begin@key}`, `{sys.*}` and the params' `parameters` keys. */
  resolve(template: string): string;
  /** Whether this component's output goes straight to the user (its one downstream is an Answer, or it ends the flow). */
  readonly speaking: boolean;
  /** Streams a piece of what the user is told; only while `speaking`. */
  say(delta: string): void;
  /** How many times this component ran in this turn, this run included. */
  readonly loopCount: number;
  /** Replaces the latest user message in the history (RewriteQuestion). */
  replaceQuestion(text: string): void;
  /** Runs another component of the flow on a given input (an Agent's tools, an Iteration's body). */
  invoke(componentId: string, input: string): Promise<ComponentOutput>;
  /** Adds model tokens to the turn's budget (the run stops when it is spent). */
  countTokens(tokens: number): void;
  readonly ports: FlowPorts;
  readonly language: Locale;
  readonly signal: AbortSignal;
}

/** The message keys of a component's texts. */
export const componentText = {
  label: (name: string) => `flow.components.${name}.label`,
  description: (name: string) => `flow.components.${name}.description`,
  param: (name: string, key: string) => `flow.components.${name}.params.${key}`,
};

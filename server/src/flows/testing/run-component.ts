import type { ChatModel } from "../../models/model-types";
import { outboundFetch, outboundPolicy } from "../../platform/outbound";
import { withDefaults, type ParamValues } from "../../platform/param-spec";
import type { SignedIn } from "../../policies/principal";
import type { ComponentContext, ComponentDefinition, ComponentOutput, FlowMessage, ResolvedInput } from "../component";
import type { FlowPorts } from "../ports";

/**
 * Runs one component outside any flow, for the components' own tests: the context is made of the values given
 * (what the engine would have worked out from the flow and its state), and what it says and counts is kept.
 * Outbound requests go through the real guard, allowed to reach loopback, where the tests' vendor servers listen.
 */

const TEST_PRINCIPAL: SignedIn = {
  kind: "apiToken",
  user: { id: "test-user", language: "en" },
  tenantId: "test-tenant",
  memberships: [{ tenantId: "test-tenant", role: "owner" }],
  tokenId: "test-token",
  expiresAt: null,
};

const LOOPBACK_ALLOWED = outboundPolicy({ privateNetworks: true, redirects: "any" });

/** Ports for a component test: loopback reachable, and whatever the test gives (a chat model, retrieval, vendor base URLs). */
export function testPorts(overrides: Partial<FlowPorts> & { chat?: ChatModel } = {}): FlowPorts {
  const { chat, ...rest } = overrides;
  return {
    tenantId: TEST_PRINCIPAL.tenantId,
    principal: TEST_PRINCIPAL,
    language: "en",
    chatModel: async () => {
      if (!chat) throw new Error("This test gave no chat model");
      return chat;
    },
    retrieve: async () => {
      throw new Error("This test gave no retrieval");
    },
    fetch: (url, request = {}) => outboundFetch(url, request, LOOPBACK_ALLOWED),
    outboundPolicy: LOOPBACK_ALLOWED,
    ...rest,
  };
}

export interface ComponentRunInput {
  params?: ParamValues;
  input?: string;
  inputs?: ResolvedInput[];
  history?: FlowMessage[];
  /** Defaults to the last user message of `history`, else `input`. */
  question?: string;
  retrievals?: ComponentOutput[];
  /** Values `resolve` fills in, by reference (`begin@lang`, `sys.query`, `Retrieval:a`). */
  variables?: Record<string, string>;
  speaking?: boolean;
  loopCount?: number;
  ports?: FlowPorts;
  signal?: AbortSignal;
  /** Other components `invoke` may run, by id. */
  invoke?: (componentId: string, input: string) => Promise<ComponentOutput>;
}

export interface ComponentRun {
  output: ComponentOutput;
  /** What the component said to the user, piece by piece. */
  said: string[];
  tokens: number;
  /** The history after the run (RewriteQuestion replaces the question). */
  history: FlowMessage[];
}

/** Fills `{reference}` placeholders from the given variables; unknown ones stay as they are. */
function resolver(variables: Record<string, string>) {
  return (template: string) => template.replace(/\{([^{}\s]+)\}/g, (whole, name: string) => variables[name] ?? whole);
}

export async function runComponent(component: ComponentDefinition, given: ComponentRunInput = {}): Promise<ComponentRun> {
  const said: string[] = [];
  const history = [...(given.history ?? [])];
  let tokens = 0;
  const lastUser = [...history].reverse().find((m) => m.role === "user")?.content;
  const speaking = given.speaking ?? false;
  const context: ComponentContext = {
    componentId: `${component.name}:test`,
    params: withDefaults(component.params, given.params ?? {}),
    input: given.input ?? "",
    inputs: given.inputs ?? [],
    history,
    question: given.question ?? lastUser ?? given.input ?? "",
    retrievals: given.retrievals ?? [],
    resolve: resolver(given.variables ?? {}),
    speaking,
    say: (delta) => {
      if (!speaking) throw new Error(`${component.name} spoke although its output does not go to the user`);
      said.push(delta);
    },
    loopCount: given.loopCount ?? 1,
    replaceQuestion: (text) => {
      const index = history.map((m) => m.role).lastIndexOf("user");
      if (index >= 0) history[index] = { role: "user", content: text };
    },
    invoke: given.invoke ?? (async (id) => Promise.reject(new Error(`This test has no component ${id} to invoke`))),
    countTokens: (n) => {
      tokens += n;
    },
    ports: given.ports ?? testPorts(),
    language: "en",
    signal: given.signal ?? new AbortController().signal,
  };
  const output = await component.run(context);
  return { output, said, tokens, history };
}

import type { ComponentDefinition } from "../component";
import { componentNamed } from "../components";
import type { FlowDsl } from "../dsl";
import { initialState } from "../engine/state";
import { runTurn } from "../engine/run-turn";
import type { RunEvent } from "../events";
import type { FlowPorts } from "../ports";
import type { FlowLimits, FlowState, TurnRequest, TurnResult } from "../run-types";
import { testPorts } from "./run-component";

/**
 * Small flows for tests, written as `{id: {name, params, down}}`, and a turn run with its events kept.
 */
export interface ComponentSketch {
  name: string;
  params?: Record<string, unknown>;
  /** Downstream ids. */
  down?: string[];
  parent?: string;
}

export function sketchFlow(components: Record<string, ComponentSketch>): FlowDsl {
  const dsl: FlowDsl = { components: {} };
  for (const [id, sketch] of Object.entries(components)) {
    dsl.components[id] = { obj: { component_name: sketch.name, params: sketch.params ?? {} }, upstream: [], downstream: [...(sketch.down ?? [])], ...(sketch.parent ? { parent_id: sketch.parent } : {}) };
  }
  for (const [id, component] of Object.entries(dsl.components)) for (const target of component.downstream) dsl.components[target]?.upstream.push(id);
  return dsl;
}

export const TEST_LIMITS: FlowLimits = { maxStepsPerTurn: 200, maxBlockRepeats: 6, timeBudgetMs: 30_000, tokenBudget: 0 };

export interface TurnRun extends TurnResult {
  events: RunEvent[];
}

export interface TestTurnOptions {
  limits?: Partial<FlowLimits>;
  signal?: AbortSignal;
  ports?: FlowPorts;
  /** Test-only components, found before the registry's. */
  extra?: readonly ComponentDefinition[];
  onEvent?: (event: RunEvent) => void;
}

export async function runTestTurn(flow: FlowDsl, state: FlowState | null, request: TurnRequest = {}, options: TestTurnOptions = {}): Promise<TurnRun> {
  const events: RunEvent[] = [];
  const extra = new Map((options.extra ?? []).map((component) => [component.name, component]));
  const result = await runTurn(flow, state ?? initialState(flow, { userId: "test-user" }), request, {
    ports: options.ports ?? testPorts(),
    limits: { ...TEST_LIMITS, ...options.limits },
    signal: options.signal ?? new AbortController().signal,
    emit: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    components: (name) => extra.get(name) ?? componentNamed(name),
  });
  return { ...result, events };
}

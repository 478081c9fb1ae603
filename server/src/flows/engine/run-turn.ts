import type { MessageReference } from "../../chat/message.entity";
import { DomainError } from "../../platform/errors";
import { failureText } from "../failure-text";
import { localizedMessage } from "../../platform/messages";
import { withDefaults } from "../../platform/param-spec";
import type { ComponentContext, ComponentOutput, ResolvedInput } from "../component";
import { componentNamed } from "../components";
import type { FlowDsl } from "../dsl";
import { openSecrets } from "../flow-secrets";
import type { FlowState, RunTurn, TurnOptions, TurnRequest, TurnResult, TurnStatus } from "../run-types";
import { defaultInput } from "./default-input";
import { FlowGraph } from "./graph";
import { repeatedBlock } from "./limits";
import { asText, referencedComponents, referenceValue, resolveText, type ReferenceValues } from "./references";
import { isPlainObject } from "../../platform/plain-object";

/**
 * One conversation turn of a flow, with RAGFlow v0.14's semantics (`Canvas.run`):
 * - the first turn runs Begin, then its downstream; a later turn runs the downstream of the Answer it stopped at
 *   (a turn after one that finished — a v0.20 flow with no Answer — starts again from Begin);
 * - components run breadth-first; a routing component (Switch, Categorize, Relevant) continues to the ids of its
 *   output's `next`, any other to all of its downstream;
 * - a component whose params reference components that will still run in this turn waits for them (a join
 *   barrier); when nothing else can run, the waiting ones run anyway, as RAGFlow does;
 * - an Answer reached is queued; at the end of the turn the first one speaks and the turn waits for the user.
 *   Later queued Answers speak on the next turns;
 * - a component speaks to the user when its one downstream is an Answer or when it ends the flow.
 * The loop limits are in limits.ts.
 */

/** Where a part of the turn runs: the flow itself, or the body of a container (an Iteration) for one item. */
interface Scope {
  /** The container whose children run here; undefined for the flow itself. */
  parent?: string;
  /** The ids run in this scope, in order (for the flow itself: this turn's path). */
  ran: string[];
  /** The default input when nothing ran before (an Iteration's item). */
  fallback: string;
}

/** The turn was stopped from outside (cancelled), or by one of its budgets (the DomainError says which). */
class Stopped extends Error {
  constructor(readonly reason: DomainError | "cancelled") {
    super("stopped");
  }
}

class Turn {
  private readonly graph: FlowGraph;
  private readonly state: FlowState;
  private readonly stopper = new AbortController();
  private readonly signal: AbortSignal;
  private steps = 0;
  private tokens = 0;
  private readonly said: string[] = [];
  /** What each speaking component has said this turn, so that its Answer does not say it again. */
  private readonly saidBy = new Map<string, string>();
  private reference: MessageReference | undefined;
  /** The turn has ended: a component it abandoned (stopped while it worked) can no longer speak nor change the state. */
  private closed = false;
  /** The Answer that spoke this turn. */
  private spokeAt: string | undefined;

  constructor(
    flow: FlowDsl,
    state: FlowState,
    private readonly request: TurnRequest,
    private readonly options: TurnOptions,
  ) {
    this.graph = new FlowGraph(flow, options.components ?? componentNamed);
    this.state = structuredClone(state);
    this.signal = AbortSignal.any([options.signal, this.stopper.signal]);
  }

  async run(): Promise<TurnResult> {
    const { limits } = this.options;
    const timer = setTimeout(() => this.stop(new DomainError("TIMEOUT", "flow.errors.timeBudget", { seconds: Math.ceil(limits.timeBudgetMs / 1000) })), limits.timeBudgetMs);
    try {
      this.throwIfStopped();
      await this.play();
      const status: TurnStatus = this.spokeAt !== undefined && (this.graph.downstream(this.spokeAt).length > 0 || this.state.pendingAnswers.length > 0) ? "waiting" : "finished";
      return this.end(status);
    } catch (error) {
      if (this.options.signal.aborted) return this.end("cancelled");
      const failure = error instanceof Stopped ? error.reason : error;
      if (failure === "cancelled") return this.end("cancelled");
      return this.end("failed", failureText(failure, this.options.ports.language, "flows.runTurn"));
    } finally {
      clearTimeout(timer);
    }
  }

  private end(status: TurnStatus, error?: string): TurnResult {
    this.closed = true;
    const answer = this.said.join("");
    if (status === "waiting" || status === "finished") {
      if (status === "waiting") this.state.waitingAt = this.spokeAt;
      else delete this.state.waitingAt;
      if (answer !== "") this.state.history.push({ role: "assistant", content: answer });
      if (this.reference) this.state.references.push(this.reference);
      this.options.emit({ type: "message_end", reference: this.reference ?? null });
      if (status === "waiting" && this.spokeAt) this.options.emit({ type: "waiting_for_input", componentId: this.spokeAt });
    }
    return { state: this.state, status, answer, ...(this.reference ? { reference: this.reference } : {}), ...(error !== undefined ? { error } : {}) };
  }

  private stop(reason: DomainError): void {
    if (!this.stopper.signal.aborted) this.stopper.abort(reason);
  }

  private stopped(): Stopped {
    if (this.options.signal.aborted) return new Stopped("cancelled");
    return new Stopped(this.stopper.signal.reason as DomainError);
  }

  private throwIfStopped(): void {
    if (this.signal.aborted) throw this.stopped();
  }

  /** A component's work, abandoned as soon as the turn is stopped (a component that ignores its signal cannot hold the turn). */
  private guarded<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.stopped());
      if (this.signal.aborted) return onAbort();
      this.signal.addEventListener("abort", onAbort, { once: true });
      work.then(
        (value) => {
          this.signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }

  // ---- the turn's course ----

  private async play(): Promise<void> {
    const { state, request } = this;
    state.counters = {};
    if (request.message !== undefined && request.message !== "") {
      state.history.push({ role: "user", content: request.message });
      state.globals["sys.query"] = request.message;
    }
    if (request.message !== undefined) state.globals["sys.conversation_turns"] = Number(state.globals["sys.conversation_turns"] ?? 0) + 1;
    if (request.inputs) Object.assign(state.beginInputs, request.inputs);

    if (request.fromComponent !== undefined) return this.rerunFrom(request.fromComponent);
    const queued = state.pendingAnswers.shift();
    if (queued !== undefined) {
      state.path.push([]);
      return this.speak(queued);
    }

    const stoppedAt = state.waitingAt;
    let frontier: string[];
    if (stoppedAt !== undefined && this.graph.has(stoppedAt)) {
      frontier = this.graph.downstream(stoppedAt);
      state.path.push([]);
    } else {
      const begin = this.graph.beginId();
      if (begin === undefined) throw new DomainError("BAD_REQUEST", "flow.errors.beginMissing");
      state.path.push([]);
      await this.step(begin, this.mainScope());
      frontier = this.graph.downstream(begin);
      // RAGFlow keeps Begin in a path of its own, so that the next list is the turn's work.
      state.path.push([]);
      if (request.greeted && request.message && frontier.length > 0 && frontier.every((id) => this.graph.isInteraction(id))) {
        // The greeting was said when the session opened: it goes before the message in the history, the Answers
        // count as passed (so that what follows them reads the message), and the turn goes on after them.
        const greeting = state.outputs[begin]?.content;
        if (greeting) state.history.splice(state.history.length - 1, 0, { role: "assistant", content: greeting });
        state.path.at(-1)!.push(...frontier);
        frontier = frontier.flatMap((id) => this.graph.downstream(id));
      }
    }
    await this.schedule(frontier, this.mainScope());
    await this.speakFirstQueued();
  }

  /** Debugging: the last turn again from one component, the outputs of those before it kept. */
  private async rerunFrom(componentId: string): Promise<void> {
    const { state } = this;
    if (!this.graph.has(componentId)) throw new DomainError("NOT_FOUND", "flow.errors.componentNotFound", { id: componentId });
    const lastTurn = state.path.at(-1) ?? [];
    const at = lastTurn.indexOf(componentId);
    const kept = at >= 0 ? lastTurn.slice(0, at) : lastTurn.filter((id) => !this.graph.isInteraction(id));
    if (state.history.at(-1)?.role === "assistant") state.history.pop();
    state.pendingAnswers = [];
    if (state.path.length === 0) state.path.push(kept);
    else state.path[state.path.length - 1] = kept;
    await this.schedule([componentId], this.mainScope());
    await this.speakFirstQueued();
  }

  private mainScope(): Scope {
    return { ran: this.state.path.at(-1)!, fallback: "" };
  }

  private async speakFirstQueued(): Promise<void> {
    const next = this.state.pendingAnswers.shift();
    if (next !== undefined) await this.speak(next);
  }

  /** An Answer ("Interact") speaks what reached it, and the turn stops there. */
  private async speak(answerId: string): Promise<void> {
    await this.step(answerId, this.mainScope());
    this.spokeAt = answerId;
  }

  /**
   * Runs the components reachable from `frontier` in this scope, breadth-first (RAGFlow's `prepare2run` and its
   * `ran` cursor over the path), with routing, waiting and the loop limits.
   */
  private async schedule(frontier: string[], scope: Scope): Promise<void> {
    let waiting: string[] = [];
    let cursor = scope.ran.length;

    const prepare = async (ids: string[], force: boolean) => {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i];
        if (this.graph.parentOf(id) !== scope.parent) continue;
        if (scope.ran.at(-1) === id) continue;
        const definition = this.graph.definition(id);
        if (definition?.editorOnly) continue;
        if (definition?.interaction) {
          if (scope.parent !== undefined) throw new DomainError("BAD_REQUEST", "flow.errors.interactionInContainer", { name: this.graph.displayName(id) });
          if (!this.state.pendingAnswers.includes(id)) this.state.pendingAnswers.push(id);
          continue;
        }
        if (!force && this.mustWait(id, scope, cursor, [...ids.slice(i + 1), ...waiting])) {
          if (!waiting.includes(id)) waiting.push(id);
          continue;
        }
        waiting = waiting.filter((other) => other !== id);
        await this.step(id, scope);
      }
    };

    await prepare(frontier, false);
    for (;;) {
      while (cursor < scope.ran.length) {
        const id = scope.ran[cursor++];
        if (scope.parent === undefined) this.checkLoops(scope.ran);
        await prepare(this.nextOf(id), false);
      }
      if (waiting.length === 0) break;
      const release = waiting;
      waiting = [];
      await prepare(release, true);
    }
  }

  /** Where the run goes after a component: a router's chosen ids, else every downstream. */
  private nextOf(id: string): string[] {
    const definition = this.graph.definition(id);
    if (!definition?.routes) return this.graph.downstream(id);
    const next = this.state.outputs[id]?.next ?? [];
    for (const target of next) {
      if (!this.graph.has(target)) throw new DomainError("BAD_REQUEST", "flow.errors.routeTargetMissing", { name: this.graph.displayName(id), target });
    }
    return next;
  }

  /**
   * Whether a component must wait: one of its dependencies (its upstream, and what its params reference) has not
   * run in this scope yet and still will — it is about to run, is waiting, or can be reached from what ran and was
   * not followed yet (not through the component itself: a back-edge does not hold it).
   */
  private mustWait(id: string, scope: Scope, cursor: number, pending: string[]): boolean {
    const missing = this.graph.dependencies(id, (other) => referencedComponents(this.graph, other)).filter((dep) => !scope.ran.includes(dep));
    if (missing.length === 0) return false;
    const reachable = new Set<string>();
    const stack = [...pending, ...scope.ran.slice(cursor).flatMap((ran) => this.nextOf(ran))];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === id || reachable.has(next) || !this.graph.has(next) || this.graph.isInteraction(next)) continue;
      reachable.add(next);
      stack.push(...this.graph.downstream(next));
    }
    return missing.some((dep) => reachable.has(dep));
  }

  private checkLoops(path: string[]): void {
    const sinceAnswer = path.slice(path.findLastIndex((id) => this.graph.isInteraction(id)) + 1);
    const block = repeatedBlock(sinceAnswer, this.options.limits.maxBlockRepeats);
    if (block) {
      const loop = [...block, ...block].map((id) => this.graph.displayName(id)).join(" => ");
      throw new DomainError("BAD_REQUEST", "flow.errors.tooManyLoops", { loop, limit: this.options.limits.maxBlockRepeats });
    }
  }

  // ---- one component ----

  private recent(scope: Scope): string[] {
    if (scope.parent !== undefined) return scope.ran;
    return [...(this.state.path.at(-2) ?? []), ...scope.ran];
  }

  private question(): string {
    return [...this.state.history].reverse().find((m) => m.role === "user")?.content ?? "";
  }

  private referenceValues(): ReferenceValues {
    return { outputs: this.state.outputs, beginInputs: this.state.beginInputs, globals: this.state.globals, question: this.question() };
  }

  private isSpeaking(id: string, scope: Scope): boolean {
    if (scope.parent !== undefined || this.graph.definition(id)?.routes) return false;
    const downstream = this.graph.downstream(id).filter((d) => this.graph.parentOf(d) === undefined && !this.graph.definition(d)?.editorOnly);
    return downstream.length === 0 || (downstream.length === 1 && this.graph.isInteraction(downstream[0]));
  }

  /** The values a component's input variables (`query`) name, as its node popover shows them. */
  private resolvedInputs(id: string, params: Record<string, unknown>): ResolvedInput[] {
    const name = this.graph.nameOf(id);
    if (name === "Begin") {
      const given = { ...this.state.beginInputs, ...(this.request.inputs ?? {}) };
      const fields = Array.isArray(params.query) ? params.query.filter(isPlainObject) : [];
      return fields.flatMap((field) => {
        const key = typeof field.key === "string" ? field.key : "";
        const value = key in given ? given[key] : field.value;
        return key && value !== undefined && value !== null ? [{ component_id: `begin@${key}`, content: asText(value) }] : [];
      });
    }
    const variables = Array.isArray(params.query) ? params.query.filter(isPlainObject) : [];
    return variables.flatMap((variable): ResolvedInput[] => {
      if (variable.type === "reference" && typeof variable.component_id === "string") {
        return [{ component_id: variable.component_id, content: referenceValue(this.graph, this.referenceValues(), variable.component_id) ?? "" }];
      }
      if (variable.type === "input" && typeof variable.value === "string") return [{ component_id: "", content: variable.value }];
      return [];
    });
  }

  private retrievals(id: string, scope: Scope): ComponentOutput[] {
    const ancestors = this.graph.ancestors(id);
    const ids = [...new Set(this.recent(scope))].filter((ran) => ancestors.has(ran) && this.graph.nameOf(ran) === "Retrieval");
    return ids.flatMap((ran) => (this.state.outputs[ran] ? [this.state.outputs[ran]] : []));
  }

  /** Runs one component in a scope (or, invoked, on a given input), records it and tells the watchers. */
  private async step(id: string, scope: Scope | null, given?: string): Promise<ComponentOutput> {
    this.throwIfStopped();
    const { graph, state, options } = this;
    const definition = graph.definition(id);
    if (!definition) throw new DomainError("BAD_REQUEST", "flow.errors.unknownComponent", { name: graph.nameOf(id) });
    this.steps++;
    if (this.steps > options.limits.maxStepsPerTurn) throw new DomainError("BAD_REQUEST", "flow.errors.tooManySteps", { limit: options.limits.maxStepsPerTurn });
    state.counters[id] = (state.counters[id] ?? 0) + 1;

    // The one place a run opens its secrets: for this component, as it runs.
    const params = openSecrets(definition, withDefaults(definition.params, graph.params(id)), options.ports.openSecret);
    const source =
      given !== undefined || scope === null ? { content: given ?? "" } : defaultInput(graph, id, this.recent(scope), state.outputs, this.question(), scope.fallback);
    const inputs = this.resolvedInputs(id, params);
    const speaking = scope !== null && this.isSpeaking(id, scope);
    let tokens = 0;
    let spokenNow = "";
    const context: ComponentContext = {
      componentId: id,
      params,
      input: source.content,
      inputs,
      history: state.history,
      question: this.question(),
      retrievals: scope === null ? [] : this.retrievals(id, scope),
      resolve: (template) => resolveText(template, graph, this.referenceValues(), id, source.content),
      speaking,
      say: (delta) => {
        if (!speaking || delta === "" || this.closed) return;
        spokenNow += delta;
        this.tell(id, delta);
      },
      loopCount: state.counters[id],
      replaceQuestion: (text) => {
        if (this.closed) return;
        const index = state.history.map((m) => m.role).lastIndexOf("user");
        if (index >= 0) state.history[index] = { role: "user", content: text };
      },
      invoke: (target, input) => this.invoke(id, target, input),
      countTokens: (n) => {
        if (!Number.isFinite(n) || n <= 0) return;
        tokens += n;
        this.tokens += n;
        const budget = options.limits.tokenBudget;
        if (budget > 0 && this.tokens > budget) this.stop(new DomainError("OVER_BUDGET", "flow.errors.tokenBudget", { limit: budget }));
      },
      ports: options.ports,
      language: options.ports.language,
      signal: this.signal,
    };

    const name = graph.nameOf(id);
    options.emit({ type: "node_started", componentId: id, componentName: name });
    const started = performance.now();
    let output: ComponentOutput;
    try {
      output = await this.guarded(definition.run(context));
    } catch (error) {
      const failure = error instanceof Stopped ? error.reason : error;
      const message =
        failure === "cancelled"
          ? null
          : failure instanceof DomainError
            ? localizedMessage(options.ports.language, failure.messageKey, failure.params)
            : localizedMessage(options.ports.language, "errors.internal", {});
      options.emit({ type: "node_finished", componentId: id, componentName: name, inputs, output: null, error: message, elapsedMs: performance.now() - started, tokens });
      throw error;
    }
    if (spokenNow !== "") {
      output = { ...output, spoken: true };
      this.saidBy.set(id, spokenNow);
    }
    state.outputs[id] = output;
    state.inputs[id] = inputs;
    if (name === "Begin") state.beginInputs = { ...state.beginInputs, ...(output.values ?? {}) };
    if (scope !== null) scope.ran.push(id);
    options.emit({ type: "node_finished", componentId: id, componentName: name, inputs, output, error: null, elapsedMs: performance.now() - started, tokens });

    if (definition.interaction) this.answer(id, output, source.from);
    else if (speaking && graph.downstream(id).length === 0) {
      // It ends the flow (v0.20's Message): what it did not stream reaches the user now.
      if (!output.spoken && output.content !== "") this.tell(id, output.content);
      if (output.reference) this.reference = output.reference;
    }
    return output;
  }

  /** What an Answer tells the user: what reached it and was not streamed yet, then its own additions. */
  private answer(id: string, output: ComponentOutput, from: string | undefined): void {
    const already = from !== undefined ? (this.saidBy.get(from) ?? "") : "";
    const rest = already !== "" && output.content.startsWith(already) ? output.content.slice(already.length) : output.content;
    if (rest !== "") this.tell(id, rest);
    const reference = output.reference ?? (from !== undefined ? this.state.outputs[from]?.reference : undefined);
    if (reference) this.reference = reference;
  }

  private tell(componentId: string, delta: string): void {
    this.said.push(delta);
    this.options.emit({ type: "message", componentId, delta });
  }

  /**
   * `invoke` of a component's context: another component on a given input (an Agent's tool), or — a container
   * invoking itself — its body for one item (an Iteration).
   */
  private async invoke(caller: string, target: string, input: string): Promise<ComponentOutput> {
    if (!this.graph.has(target)) throw new DomainError("BAD_REQUEST", "flow.errors.componentNotFound", { id: target });
    if (target === caller && this.graph.definition(caller)?.container) return this.runBody(caller, input);
    if (this.graph.isInteraction(target) || this.graph.definition(target)?.editorOnly) throw new DomainError("BAD_REQUEST", "flow.errors.notInvocable", { name: this.graph.displayName(target) });
    return this.step(target, null, input);
  }

  /** A container's children for one item: from those with no upstream among them; the output of the last one that ends the body. */
  private async runBody(containerId: string, item: string): Promise<ComponentOutput> {
    const children = this.graph.childrenOf(containerId);
    const entries = children.filter((child) => !this.graph.upstream(child).some((up) => children.includes(up)));
    const scope: Scope = { parent: containerId, ran: [], fallback: item };
    await this.schedule(entries, scope);
    const ends = scope.ran.filter((id) => !this.graph.downstream(id).some((down) => children.includes(down)));
    const last = ends.at(-1) ?? scope.ran.at(-1);
    return last !== undefined ? this.state.outputs[last] : { content: item };
  }
}

export const runTurn: RunTurn = (flow, state, request, options) => new Turn(flow, state, request, options).run();

import { In, LessThan, type Repository } from "typeorm";
import type { MessageReference } from "../chat/message.entity";
import { Conflict, DomainError, FieldChecks, Invalid, messageForClient, NotFound, Unauthenticated } from "../platform/errors";
import { copyEntity, GroupedStatement, outputsByKey } from "../platform/grouped-statement";
import { newId } from "../platform/ids";
import { storableJson, storableText } from "../platform/sql";
import { isLanguage, localizedMessage, type Locale } from "../platform/messages";
import { failureText } from "./failure-text";
import type { Platform } from "../platform";
import { CancellableRuns } from "../platform/runs/cancellable-runs";
import { authorize, scope, scopeSql, type FlowSessionResource } from "../policies";
import type { FlowSharePrincipal, SignedIn } from "../policies/principal";
import type { SequencedRunEvent } from "./events";
import type { Flow } from "./flow.entity";
import { localeOf, type FlowService } from "./flow.service";
import { FINAL_RUN_STATUSES, FlowRun, FlowRunStep, type FlowRunStatus } from "./flow-run.entity";
import { FlowSession, type FlowSessionMessage, type FlowSessionSource } from "./flow-session.entity";
import { isLastEvent, RunRecorder, runEventStream, runEventStreamFromStart } from "./run-events";
import { flowPorts, type PortServices } from "./run-ports";
import { knowledgeBasesNamedIn } from "./components/llm/retrieval";
import type { KnowledgeBaseLookups } from "../retrieval/retrieval.service";
import { debugComponent, type DebugInput, type DebugResult } from "./debug-component";
import { testFlowDatabase } from "./database-test";
import type { ConnectionTest } from "../models/models.service";
import { flowLimits, initialState, validateFlow } from "./engine";
import type { RunTurn, TurnResult } from "./run-types";

/**
 * Runs of flows. A run is one turn of a session (RAGFlow: one completion call): from the user's message, or
 * the start, to the next Answer, where it waits for the user, or to the flow's end. It runs as a job on the queue
 * port (in this process, or on any worker with Redis) through the engine's `runTurn`, on the session's own copy of
 * the flow and its own state, so running never changes the saved flow. Any process may cancel it; its events are
 * stored as they come (run-events.ts), its steps with them.
 */

export const RUN_JOB = "flows.run";
export const CANCEL_TOPIC = "flows.run.cancel";

const MESSAGE_MAX_LENGTH = 100_000;
/** Beyond its time budget, a run still marked running with Redis is one whose process died (its own limit ends it before). */
const INTERRUPTED_GRACE_MS = 60_000;
/** More events than a turn publishes in practice (its default budget is 200,000 tokens); within the int seq column. */
const SEQ_SKIP_AFTER_DEAD_PROCESS = 100_000_000;

/**
 * Who acts on runs and sessions: a member of the flow's tenant (or of its team), or the visitor of a shared flow's
 * page, who reaches that flow only and their own sessions of it (the flow and flow session policies decide).
 */
export type FlowActor = SignedIn | FlowSharePrincipal;

/** A session as the policy sees it. */
const sessionResource = (session: Pick<FlowSession, "tenantId" | "flowId" | "source" | "userId">): FlowSessionResource => ({
  kind: "flowSession",
  tenantId: session.tenantId,
  flowId: session.flowId,
  source: session.source,
  userId: session.userId,
});

export interface RunPayload {
  runId: string;
  /** Who started the run: what it may read and which models it uses, as at its start. */
  principal: SignedIn;
  /** The knowledge bases its flow's components name, looked up while the run is claimed (absent from jobs queued before this was told). */
  knowledgeBaseIds?: string[];
}

export interface StartRunInput {
  /** The user's message; none on the first turn, where Begin speaks first, or in a task-style flow. */
  message?: string | null;
  /** Begin's input values by key. */
  inputs?: Record<string, unknown> | null;
  /** The session to continue (answering an interaction); none opens a new one. */
  sessionId?: string | null;
  /** Re-run the session's flow from this component, keeping the outputs of those before it. */
  fromComponent?: string | null;
  /** For a new session: the service API's `user_id` (default: the runner's own id), and where it was opened. */
  userId?: string | null;
  source?: FlowSessionSource;
}

export interface StartedRun {
  run: FlowRun;
  session: FlowSession;
}

export interface WatchedRun extends StartedRun {
  /** The run's events from its first, to its last. */
  events: AsyncIterable<SequencedRunEvent>;
}

export interface SessionQuery {
  page?: number;
  pageSize?: number;
  id?: string;
  userId?: string;
  orderBy?: "createdAt" | "updatedAt";
  desc?: boolean;
}

export interface RunQuery {
  sessionId?: string | null;
  page?: number;
  pageSize?: number;
}

const runLocale = (run: Pick<FlowRun, "language">): Locale => (isLanguage(run.language) ? (run.language as Locale) : "en");

const isFinalStatus = (status: string) => (FINAL_RUN_STATUSES as readonly string[]).includes(status);

export class FlowRunService {
  /** The runs of this process: a cancel taken by any process reaches the one running it. */
  private readonly runs: CancellableRuns;

  constructor(
    private readonly platform: Platform,
    private readonly deps: PortServices & {
      flows: FlowService;
      runTurn: RunTurn;
      /** Who a shared flow's visitor runs it as (FlowShareService.runnerOf); without it, visitors cannot run flows. */
      runnerOf?: (visitor: FlowSharePrincipal) => Promise<SignedIn>;
    },
  ) {
    this.runs = CancellableRuns.on(platform.pubsub, CANCEL_TOPIC);
  }

  private get runRows(): Repository<FlowRun> {
    return this.platform.db.getRepository(FlowRun);
  }

  private get sessions(): Repository<FlowSession> {
    return this.platform.db.getRepository(FlowSession);
  }

  /** Sessions by id; the reads of requests that arrive together in one statement (every turn in a session reads it). */
  private readonly sessionReads = new GroupedStatement<string, FlowSession | null>(
    async (ids) => outputsByKey(ids, new Map((await this.sessions.findBy({ id: In(ids) })).map((session) => [session.id, session])), copyEntity),
    { maxItems: 128 },
  );

  /** Runs with their sessions (null once deleted), by run id, read together; grouped as sessionReads (every turn starts here, and every watcher). */
  private readonly runReads = new GroupedStatement<string, { run: FlowRun; session: FlowSession | null } | null>(
    async (ids) => {
      const rows = (await this.runRows
        .createQueryBuilder("r")
        .leftJoinAndMapOne("r.loadedSession", FlowSession, "s", "s.id = r.sessionId")
        .where("r.id IN (:...ids)", { ids })
        .getMany()) as (FlowRun & { loadedSession?: FlowSession | null })[];
      const found = new Map(rows.map(({ loadedSession, ...fields }) => [fields.id, { run: Object.assign(new FlowRun(), fields), session: loadedSession ?? null }]));
      return outputsByKey(ids, found, ({ run, session }) => ({ run: copyEntity(run), session: session && copyEntity(session) }));
    },
    { maxItems: 128 },
  );

  // ---- sessions ---------------------------------------------------------------------------------

  /** A new session of a flow the principal may run, on a copy of the flow as it is now. */
  async createSession(principal: SignedIn, flowId: string, options: { userId?: string | null; source?: FlowSessionSource } = {}): Promise<FlowSession> {
    const flow = await this.deps.flows.accessible(principal, flowId, "use");
    return this.openSession(principal, flow, options);
  }

  private async openSession(principal: SignedIn, flow: Flow, options: { userId?: string | null; source?: FlowSessionSource }): Promise<FlowSession> {
    const userId = (options.userId?.trim() || principal.user.id).slice(0, 255);
    const session = this.sessions.create({
      id: newId(),
      flowId: flow.id,
      tenantId: flow.tenantId,
      userId,
      source: options.source ?? "web",
      dsl: flow.dsl,
      state: initialState(flow.dsl, { userId }),
      messages: [],
    });
    await this.sessions.insert(session as never);
    return this.sessions.findOneByOrFail({ id: session.id });
  }

  /** A session of a flow the actor may read: a visitor's own only. */
  async session(actor: FlowActor, sessionId: string): Promise<FlowSession> {
    const session = await this.sessionReads.submit(sessionId);
    if (!session) throw NotFound("flow.errors.sessionNotFound");
    await this.flowOf(actor, session.flowId, "read", "flow.errors.sessionNotFound");
    authorize(actor, "read", sessionResource(session));
    return session;
  }

  /** The flow, or the given NOT_FOUND when the principal may not see it (a refusal must not tell that it exists). */
  private async flowOf(principal: FlowActor, flowId: string, action: "read" | "use", notFound: string): Promise<Flow> {
    try {
      return await this.deps.flows.accessible(principal, flowId, action);
    } catch (error) {
      if (error instanceof DomainError && error.kind === "NOT_FOUND") throw NotFound(notFound);
      throw error;
    }
  }

  /** The sessions of a flow the actor may read (a visitor's own), newest first, with paging and exact filters (the service API's session list). */
  async listSessions(actor: FlowActor, flowId: string, query: SessionQuery = {}): Promise<FlowSession[]> {
    const flow = await this.deps.flows.accessible(actor, flowId, "read");
    const pageSize = Math.max(0, query.pageSize ?? 30);
    if (pageSize === 0) return [];
    const visible = scopeSql(scope(actor, "read", "flowSession"), "s");
    const builder = this.sessions.createQueryBuilder("s").where(`${visible.sql} AND s.flowId = :flowId`, { ...visible.params, flowId: flow.id });
    if (query.id) builder.andWhere("s.id = :id", { id: query.id });
    if (query.userId) builder.andWhere("s.userId = :userId", { userId: query.userId });
    const direction = query.desc === false ? "ASC" : "DESC";
    return builder
      .orderBy(`s.${query.orderBy ?? "updatedAt"}`, direction)
      .addOrderBy("s.id", direction)
      .skip((Math.max(1, query.page ?? 1) - 1) * pageSize)
      .take(pageSize)
      .getMany();
  }

  /** Deletes sessions of a flow (their runs stop); which of `ids` were the flow's. */
  async deleteSessions(principal: SignedIn, flowId: string, ids: string[]): Promise<string[]> {
    const flow = await this.deps.flows.accessible(principal, flowId, "use");
    const found = await this.sessions.findBy({ flowId: flow.id, id: In([...new Set(ids)]) });
    if (found.length === 0) return [];
    const open = await this.runRows.findBy({ sessionId: In(found.map((s) => s.id)), status: In(["queued", "running"]) });
    for (const run of open) this.runs.cancel(run.id);
    await this.sessions.delete({ id: In(found.map((s) => s.id)) });
    return found.map((s) => s.id);
  }

  // ---- runs -------------------------------------------------------------------------------------

  /**
   * Starts a turn: in the session given (answering its interaction, or re-running from a component), else in a new
   * one. The run is queued and returned at once; follow it with `events`.
   */
  async start(actor: FlowActor, flowId: string, input: StartRunInput = {}): Promise<StartedRun> {
    return this.queueRun(actor, flowId, input);
  }

  /**
   * Starts a turn as `start` does, for the one who streams it (the agents API): its events are watched from before
   * it is queued, so that every one of them comes live and none waits for its batch to be stored and read back.
   */
  async startWatched(actor: FlowActor, flow: string | Promise<Flow>, input: StartRunInput = {}): Promise<WatchedRun> {
    return this.queueRun(actor, flow, input, (run) => runEventStreamFromStart(this.platform, run.id));
  }

  /**
   * The turn's checks, its run row, and its job; `watch` opens the run's event stream just before the job is queued.
   * The flow is its id, or the flow as the caller reads it (the agents API, which looks it up to word its own refusal);
   * the session named is read meanwhile.
   */
  private async queueRun(actor: FlowActor, target: string | Promise<Flow>, input: StartRunInput): Promise<StartedRun>;
  private async queueRun(actor: FlowActor, target: string | Promise<Flow>, input: StartRunInput, watch: (run: FlowRun) => AsyncGenerator<SequencedRunEvent>): Promise<WatchedRun>;
  private async queueRun(
    actor: FlowActor,
    target: string | Promise<Flow>,
    input: StartRunInput,
    watch?: (run: FlowRun) => AsyncGenerator<SequencedRunEvent>,
  ): Promise<StartedRun & { events?: AsyncIterable<SequencedRunEvent> }> {
    const [flow, named] = await Promise.all([
      typeof target === "string" ? this.deps.flows.accessible(actor, target, "use") : target.then((read) => this.deps.flows.permitted(actor, read, "use")),
      input.sessionId ? this.sessionReads.submit(input.sessionId) : null,
    ]);
    const message = input.message?.trim() || null;
    new FieldChecks().check(!message || message.length <= MESSAGE_MAX_LENGTH, "message", "flow.errors.messageTooLong", { max: MESSAGE_MAX_LENGTH }).throwIfAny();
    const existing = named?.flowId === flow.id ? named : null;
    if (input.sessionId && !existing) throw NotFound("flow.errors.sessionNotFound");
    if (existing) authorize(actor, "use", sessionResource(existing));
    const dsl = existing?.dsl ?? flow.dsl;
    // The engine's checks before it runs: a flow that cannot run as drawn is refused, every problem named.
    const problems = validateFlow(dsl);
    if (problems.length > 0) {
      throw Invalid(problems.map((p) => ({ field: [p.componentId, p.field].filter(Boolean).join(".") || "dsl", messageKey: p.messageKey, params: p.params })));
    }
    if (input.fromComponent && !dsl.components[input.fromComponent]) {
      throw new DomainError("BAD_REQUEST", "flow.errors.componentNotFound", { id: input.fromComponent });
    }
    const principal = await this.runnerFor(actor);
    const session = existing ?? (await this.openSession(principal, flow, actor.kind === "flowShare" ? { userId: this.visitorOf(actor), source: "share" } : { userId: input.userId, source: input.source }));
    const run = this.runRows.create({
      id: newId(),
      flowId: flow.id,
      sessionId: session.id,
      tenantId: flow.tenantId,
      createdBy: principal.user.id,
      status: "queued",
      message,
      inputs: input.inputs ?? {},
      fromComponent: input.fromComponent ?? null,
      answer: "",
      reference: null,
      error: null,
      notes: [],
      tokens: 0,
      language: localeOf(principal),
      startedAt: null,
      finishedAt: null,
    });
    try {
      await this.runRows.insert(run as never);
    } catch (error) {
      if (String((error as Error).message).includes("flow_run_one_active_idx")) throw Conflict("flow.errors.sessionBusy");
      throw error;
    }
    // The insert filled in what the database gave the row (its creation time): the run is as stored, not read back.
    const events = watch?.(run);
    try {
      await this.platform.queue.enqueue(RUN_JOB, { runId: run.id, principal, knowledgeBaseIds: knowledgeBasesNamedIn(dsl) } satisfies RunPayload, { jobId: run.id });
    } catch (error) {
      // Never queued: the run ends failed, so that its session takes messages again and its watcher stops.
      await this.endUnrun(run.id, "queued", { status: "failed", error: messageForClient(`flow run ${run.id}`, error) }).catch(() => undefined);
      throw error;
    }
    return { run, session, ...(events ? { events } : {}) };
  }

  /** Who runs the flow for the actor: a member themself; a visitor, whoever shared the flow (FlowShareService.runnerOf). */
  private async runnerFor(actor: FlowActor): Promise<SignedIn> {
    if (actor.kind !== "flowShare") return actor;
    if (!this.deps.runnerOf) throw Unauthenticated();
    return this.deps.runnerOf(actor);
  }

  /** The visitor id a shared flow's page sends: their sessions are theirs. */
  private visitorOf(visitor: FlowSharePrincipal): string {
    const id = visitor.visitorId?.trim();
    if (!id) throw new DomainError("BAD_REQUEST", "errors.conversation.visitorRequired");
    return id;
  }

  /** A run of a flow the actor may read, in a session they may read (a visitor's own). */
  async get(actor: FlowActor, runId: string): Promise<FlowRun> {
    const found = await this.runReads.submit(runId);
    if (!found) throw NotFound("flow.errors.runNotFound");
    const { run, session } = found;
    await this.flowOf(actor, run.flowId, "read", "flow.errors.runNotFound");
    if (!session) throw NotFound("flow.errors.runNotFound");
    try {
      authorize(actor, "read", sessionResource(session));
    } catch (error) {
      if (error instanceof DomainError && error.kind === "NOT_FOUND") throw NotFound("flow.errors.runNotFound");
      throw error;
    }
    return run;
  }

  /** The runs of a flow (or of one of its sessions), newest first. */
  async list(principal: SignedIn, flowId: string, query: RunQuery = {}): Promise<FlowRun[]> {
    const flow = await this.deps.flows.accessible(principal, flowId, "read");
    const pageSize = Math.min(Math.max(0, query.pageSize ?? 30), 200);
    if (pageSize === 0) return [];
    return this.runRows.find({
      where: { flowId: flow.id, ...(query.sessionId ? { sessionId: query.sessionId } : {}) },
      order: { createdAt: "DESC", id: "DESC" },
      skip: (Math.max(1, query.page ?? 1) - 1) * pageSize,
      take: pageSize,
    });
  }

  /** The steps of runs, in order, by run id (one query for a list). */
  async stepsOf(runIds: readonly string[]): Promise<Map<string, FlowRunStep[]>> {
    const byRun = new Map<string, FlowRunStep[]>(runIds.map((id) => [id, []]));
    if (runIds.length === 0) return byRun;
    const rows = await this.platform.db.getRepository(FlowRunStep).find({ where: { runId: In([...runIds]) }, order: { runId: "ASC", seq: "ASC" } });
    for (const row of rows) byRun.get(row.runId)?.push(row);
    return byRun;
  }

  /** The run's events for this watcher: from the start (or after `after`), then live, until its last. */
  async events(actor: FlowActor, runId: string, after?: number | null): Promise<AsyncIterable<SequencedRunEvent>> {
    const run = await this.get(actor, runId);
    return runEventStream(this.platform, run.id, after ?? undefined);
  }

  /** Waits until the run ends (waiting, finished, failed or cancelled) and gives its row. */
  async finished(principal: SignedIn, runId: string): Promise<FlowRun> {
    for await (const event of await this.events(principal, runId)) if (isLastEvent(event)) break;
    return this.runRows.findOneByOrFail({ id: runId });
  }

  /** Cancels a run: one still queued never starts; a running one stops where it is, wherever it runs. */
  async cancel(actor: FlowActor, runId: string): Promise<FlowRun> {
    const run = await this.get(actor, runId);
    await this.flowOf(actor, run.flowId, "use", "flow.errors.runNotFound");
    if (isFinalStatus(run.status)) return run;
    if (await this.endUnrun(run.id, "queued", { status: "cancelled" })) return this.runRows.findOneByOrFail({ id: run.id });
    const local = this.runs.get(run.id);
    this.runs.cancel(run.id);
    if (local) await local.ended;
    else if (!this.platform.config.redisUrl) await this.endUnrun(run.id, "running", { status: "cancelled" }); // no process runs it (it died)
    return this.runRows.findOneByOrFail({ id: run.id });
  }

  /** Ends a run that no process is running (queued, or left by a process that died), with its last event. */
  private async endUnrun(runId: string, from: FlowRunStatus, end: { status: "cancelled" } | { status: "failed"; error: string }): Promise<boolean> {
    const result: unknown = await this.platform.db.query(
      `UPDATE flow_run SET status = $3, error = $4, finished_at = now() WHERE id = $1 AND status = $2 RETURNING id`,
      [runId, from, end.status, end.status === "failed" ? end.error : null],
    );
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as unknown[];
    if (rows.length === 0) return false;
    const last = await this.platform.db.query(`SELECT coalesce(max(seq), 0) AS seq FROM flow_run_event WHERE run_id = $1`, [runId]);
    // A process that died running it had published events it never stored (up to a write interval's, or a slow
    // database's backlog): its watchers are past the stored seq, and would skip an end numbered after it. The end
    // is numbered past any seq a turn publishes; a watcher meeting the jump reads it from the store.
    const skip = from === "running" ? SEQ_SKIP_AFTER_DEAD_PROCESS : 0;
    const recorder = new RunRecorder(this.platform, runId, Number(last[0]?.seq ?? 0) + skip);
    await recorder.end(end.status === "failed" ? { type: "run_failed", error: end.error } : { type: "run_cancelled" });
    return true;
  }

  /**
   * The job: runs the turn, records its events and steps, and leaves the session's state and messages and the run's
   * outcome stored. A run cancelled before it started does nothing.
   */
  async execute(payload: RunPayload): Promise<void> {
    // Registered before the run is claimed, so that a cancel in between is not missed.
    await this.runs.run(payload.runId, async (signal) => {
      // Claimed and stamped as the flow's last run in one statement; the run with its session read meanwhile (as it was
      // before the claim, which the claim's answer then completes), and the knowledge bases its components search, so
      // that the turn waits for one turn of the database, not two or three.
      const knowledgeBases = this.deps.retrieval.lookUp(payload.principal, payload.knowledgeBaseIds ?? []);
      const [claimed, found] = await Promise.all([
        this.platform.db.query(
          `WITH claimed AS (UPDATE flow_run SET status = 'running', started_at = now() WHERE id = $1 AND status = 'queued' RETURNING id, flow_id, started_at),
             stamped AS (UPDATE flow SET last_run_at = now() FROM claimed WHERE flow.id = claimed.flow_id)
           SELECT started_at FROM claimed`,
          [payload.runId],
        ) as Promise<{ started_at: Date }[]>,
        this.runReads.submit(payload.runId),
      ]);
      if (claimed.length === 0) {
        // Already running: this job ran before on a worker that died mid-turn, and the queue handed it on. A turn is
        // not run twice (its components may have acted on the world): it ends failed, saying why, and its session
        // takes messages again (else it stays busy until a server restarts).
        const left = found?.run;
        if (left) await this.endUnrun(left.id, "running", { status: "failed", error: localizedMessage(runLocale(left), "flow.errors.interrupted") });
        return;
      }
      if (!found?.session) return; // deleted meanwhile, with its runs
      Object.assign(found.run, { status: "running", startedAt: claimed[0].started_at });
      await this.runTurn(found.run, found.session, payload.principal, signal, knowledgeBases);
    });
  }

  private async runTurn(run: FlowRun, session: FlowSession, principal: SignedIn, signal: AbortSignal, knowledgeBases: KnowledgeBaseLookups): Promise<void> {
    const recorder = new RunRecorder(this.platform, run.id);
    try {
      await this.recordTurn(run, session, { principal, knowledgeBases }, signal, recorder);
    } finally {
      recorder.detach(); // ended, or failed before its end was told: its watchers read the store
    }
  }

  private async recordTurn(
    run: FlowRun,
    session: FlowSession,
    runner: { principal: SignedIn; knowledgeBases: KnowledgeBaseLookups },
    signal: AbortSignal,
    recorder: RunRecorder,
  ): Promise<void> {
    recorder.emit({ type: "run_started", runId: run.id, sessionId: session.id });
    const notes: string[] = [];
    let tokens = 0;
    let waitingTold = false;
    let endTold = false;
    let result: TurnResult;
    try {
      result = await this.deps.runTurn(
        session.dsl,
        session.state,
        // A session shows Begin's greeting when it opens (the REST session, the run drawer's first turn).
        { message: run.message ?? undefined, inputs: run.inputs, fromComponent: run.fromComponent ?? undefined, greeted: true },
        {
          ports: flowPorts(this.deps, runner.principal, notes, runner.knowledgeBases),
          limits: flowLimits(this.platform.config),
          signal,
          emit: (event) => {
            // The run's own beginning and end are told here, once.
            if (event.type === "run_started" || isLastEvent(event)) return;
            if (event.type === "node_finished") tokens += event.tokens;
            if (event.type === "waiting_for_input") waitingTold = true;
            if (event.type === "message_end") endTold = true;
            recorder.emit(event);
          },
        },
      );
    } catch (error) {
      result = signal.aborted
        ? { status: "cancelled", state: session.state, answer: "" }
        : { status: "failed", state: session.state, answer: "", error: failureText(error, runLocale(run), `flow run ${run.id}`) };
    }
    if (signal.aborted && result.status !== "cancelled") result = { ...result, status: "cancelled" };
    const reference: MessageReference | null = result.reference ?? null;
    if (!endTold && (result.status === "waiting" || result.status === "finished")) recorder.emit({ type: "message_end", reference });
    if (result.status === "waiting" && !waitingTold) recorder.emit({ type: "waiting_for_input", componentId: result.state.path.at(-1)?.at(-1) ?? "" });

    const now = new Date().toISOString();
    const messages: FlowSessionMessage[] = [...session.messages];
    if (run.message) messages.push({ id: newId(), role: "user", content: run.message, runId: run.id, createdAt: now });
    if (result.answer) messages.push({ id: newId(), role: "assistant", content: result.answer, reference, runId: run.id, createdAt: now });
    // A failed or cancelled turn leaves the state as it was before it: the next message is asked of the same point.
    const state = result.status === "waiting" || result.status === "finished" ? result.state : session.state;
    // The session's next state and the run's outcome, in one statement.
    await this.platform.db.query(
      `WITH session AS (UPDATE flow_session SET state = $2::jsonb, messages = $3::jsonb, updated_at = now() WHERE id = $1)
       UPDATE flow_run SET status = $5, answer = $6, reference = $7::jsonb, error = $8, notes = $9::jsonb, tokens = $10, finished_at = now() WHERE id = $4`,
      [
        session.id,
        storableJson(state),
        storableJson(messages),
        run.id,
        result.status,
        storableText(result.answer),
        reference === null ? null : storableJson(reference),
        result.error === undefined ? null : storableText(result.error),
        storableJson(notes),
        tokens,
      ],
    );
    // Told last, once the rows say how it ended: whoever reads the run on its last event finds it ended.
    if (result.status === "failed") await recorder.end({ type: "run_failed", error: result.error ?? "" });
    else if (result.status === "cancelled") await recorder.end({ type: "run_cancelled" });
    else await recorder.end({ type: "run_finished", status: result.status });
  }

  /** After the job's last attempt failed (a database outage): the run is failed with the reason, never left running. */
  async failUnexpectedly(payload: RunPayload, error: Error): Promise<void> {
    const reason = messageForClient(`flow run ${payload.runId}`, error);
    (await this.endUnrun(payload.runId, "running", { status: "failed", error: reason })) || (await this.endUnrun(payload.runId, "queued", { status: "failed", error: reason }));
  }

  /** Runs one component of the saved flow on the values given (debug-component.ts); nothing is stored. */
  async debug(principal: SignedIn, flowId: string, input: DebugInput): Promise<DebugResult> {
    const flow = await this.deps.flows.accessible(principal, flowId, "use");
    const notes: string[] = [];
    const result = await debugComponent(flow.dsl, input, flowPorts(this.deps, principal, notes), AbortSignal.timeout(flowLimits(this.platform.config).timeBudgetMs));
    return { ...result, output: result.output && notes.length > 0 ? { ...result.output, notes: [...(result.output.notes ?? []), ...notes] } : result.output };
  }

  /** The editor's Test of an ExeSQL node (database-test.ts), through the runs' outbound policy; its editors only, for it may use the saved password. */
  async testDatabase(principal: SignedIn, flowId: string, componentId: string, params: Record<string, unknown>): Promise<ConnectionTest> {
    const flow = await this.deps.flows.accessible(principal, flowId, "manage");
    return testFlowDatabase(flow.dsl, componentId, params, flowPorts(this.deps, principal, []));
  }

  /**
   * Runs a stopped server left open, failed with a reason so that their sessions take messages again: in embedded
   * mode every open run (its queue died with the process); with Redis, whose queue outlives a process, only runs
   * that started longer ago than a turn may last.
   */
  async closeInterruptedRuns(): Promise<number> {
    const { redisUrl } = this.platform.config;
    const cutoff = new Date(Date.now() - flowLimits(this.platform.config).timeBudgetMs - INTERRUPTED_GRACE_MS);
    const open = await this.runRows.find({ where: redisUrl ? { status: "running", startedAt: LessThan(cutoff) } : { status: In(["queued", "running"]) }, select: { id: true, status: true, language: true } });
    let closed = 0;
    for (const run of open) {
      const error = localizedMessage(runLocale(run), "flow.errors.interrupted");
      if (await this.endUnrun(run.id, run.status, { status: "failed", error })) closed++;
    }
    return closed;
  }

  /** Stops every run of this process (each ends cancelled). */
  async close(): Promise<void> {
    await this.runs.cancelAll();
    await this.runs.close();
  }
}

// TEMPORARY: the shape the REST facade expects of the flow services, until flows-service is merged.
import type { SignedIn } from "../../policies/principal";
import type { MessageReference } from "../../chat/message.entity";
import type { FlowDsl } from "../dsl";
import type { SequencedRunEvent } from "../events";

export interface PendingFlow {
  id: string;
  tenantId: string;
  name: string;
  description: string | null;
  avatar: string | null;
  permission: string;
  dsl: FlowDsl;
  createdAt: Date;
  updatedAt: Date;
}

export interface PendingSessionMessage {
  role: "user" | "assistant";
  content: string;
  id?: string;
  createdAt?: Date;
  reference?: MessageReference | null;
}

export interface PendingSession {
  id: string;
  flowId: string;
  userId: string;
  name: string;
  source: string;
  dsl: FlowDsl;
  messages: PendingSessionMessage[];
  tokens: number;
  durationMs: number;
  rounds: number;
  errors: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PendingFlowService {
  list(principal: SignedIn, query: { page: number; pageSize: number; orderBy: string; desc: boolean; id?: string; name?: string; ownOnly: boolean }): Promise<PendingFlow[]>;
  get(principal: SignedIn, id: string, action: "read" | "manage"): Promise<PendingFlow>;
  create(principal: SignedIn, input: { name: string; dsl: FlowDsl; description?: string | null; avatar?: string | null }): Promise<PendingFlow>;
  update(principal: SignedIn, id: string, input: { name?: string; dsl?: FlowDsl; description?: string | null; avatar?: string | null }): Promise<PendingFlow>;
  delete(principal: SignedIn, id: string): Promise<void>;
  prologue(dsl: FlowDsl): string;
}

export interface PendingFlowRunService {
  createSession(principal: SignedIn, flowId: string, input: { userId: string; source: "api" }): Promise<PendingSession>;
  session(principal: SignedIn, sessionId: string): Promise<PendingSession>;
  listSessions(principal: SignedIn, flowId: string, query: { page: number; pageSize: number; orderBy: string; desc: boolean; id?: string; userId?: string }): Promise<PendingSession[]>;
  deleteSessions(principal: SignedIn, ids: string[]): Promise<number>;
  startTurn(principal: SignedIn, sessionId: string, request: { message: string; inputs: Record<string, unknown> }): Promise<{ runId: string }>;
  events(principal: SignedIn, runId: string): AsyncIterable<SequencedRunEvent>;
  cancel(principal: SignedIn, runId: string): Promise<void>;
}

declare module "../../platform/services" {
  interface Services {
    flows: PendingFlowService;
    flowRuns: PendingFlowRunService;
  }
}

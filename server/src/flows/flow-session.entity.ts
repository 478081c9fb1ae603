import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";
import type { MessageReference } from "../chat/message.entity";
import type { FlowDsl } from "./dsl";
import type { FlowState } from "./run-types";

/** Where a session was opened: the editor's run drawer, the service API (an agent session), or a shared flow's page. */
export type FlowSessionSource = "web" | "api" | "share";

/** A message of a session's conversation, as RAGFlow's agent sessions list them. */
export interface FlowSessionMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  reference?: MessageReference | null;
  /** The run that asked or answered it. */
  runId: string;
  createdAt: string;
}

/**
 * A conversation with a flow (the run drawer, an API session; RAGFlow's `api_4_conversation`). It runs on its own
 * copy of the flow, taken when it opened, and keeps its own state, so running or debugging never changes the flow.
 */
@ObjectType()
@Entity("flow_session")
export class FlowSession {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  flowId: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  /** The signed-in user's id, the service API's `user_id`, or a shared flow's visitor id. */
  @Field()
  @Column({ type: "varchar", length: 255 })
  userId: string;

  @Field(() => String, { description: "web (the run drawer), api (the service API) or share (a shared flow's page)." })
  @Column({ type: "varchar", length: 8 })
  source: FlowSessionSource;

  @Column({ type: "jsonb" })
  dsl: FlowDsl;

  @Column({ type: "jsonb" })
  state: FlowState;

  @Column({ type: "jsonb", default: [] })
  messages: FlowSessionMessage[];

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @Field()
  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;
}

import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";
import type { FlowDsl } from "./dsl";

/** A flow as one save left it (RAGFlow v0.18's `user_canvas_version`); the newest FLOW_VERSIONS_KEPT are kept. */
@ObjectType()
@Entity("flow_version")
export class FlowVersion {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  flowId: string;

  @Field()
  @Column({ type: "varchar", length: 255 })
  title: string;

  /** Its secrets sealed (flow-secrets.ts); GraphQL shows it masked (the `dsl` field resolvers of flow.resolver.ts). */
  @Column({ type: "jsonb" })
  dsl: FlowDsl;

  @Field({ description: "Who saved it." })
  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}

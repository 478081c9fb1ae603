import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";
import type { FlowDsl } from "./dsl";

/** An agent flow (RAGFlow's `user_canvas`): a named graph of components, its title unique in its tenant (spec §5). */
@ObjectType()
@Entity("flow")
export class Flow {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Field({ description: "The user who made it." })
  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Field()
  @Column({ type: "varchar", length: 255 })
  title: string;

  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  description: string | null;

  @Field(() => String, { nullable: true, description: "A data URL (image/png or image/jpeg)." })
  @Column({ type: "text", nullable: true })
  avatar: string | null;

  @Field({ description: "me (only its tenant) or team (every member of the tenant's team)." })
  @Column({ type: "varchar", length: 8 })
  permission: string;

  /** Its secrets sealed (flow-secrets.ts); GraphQL shows it masked (the `dsl` field resolvers of flow.resolver.ts). */
  @Column({ type: "jsonb" })
  dsl: FlowDsl;

  /** The recycle-bin entry that holds this row (bin/), or null while it is live. */
  @Column({ type: "varchar", length: 32, nullable: true })
  binnedIn: string | null;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @Field({ description: "When it was last saved: the editor shows \"Autosaved <time>\"." })
  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;

  @Field(() => Date, { nullable: true })
  @Column({ type: "timestamptz", nullable: true })
  lastRunAt: Date | null;
}

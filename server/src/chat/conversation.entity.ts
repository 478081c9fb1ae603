import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";

/** Where a conversation was started: the chat page, the service API (§7 sessions), or a share page. */
export type ConversationSource = "web" | "api" | "share";

/** A conversation with a chat assistant (RAGFlow's "session"); its messages are ChatMessage rows. */
@ObjectType("Conversation")
@Entity("chat_conversation")
export class Conversation {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Field(() => ID)
  @Column({ type: "varchar", length: 32 })
  assistantId: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  /** The signed-in user's id, the REST `user_id`, or the share page's visitor id. */
  @Column({ type: "varchar", length: 255 })
  userId: string;

  @Column({ type: "varchar", length: 8 })
  source: ConversationSource;

  @Field()
  @Column({ type: "varchar", length: 255 })
  name: string;

  /** The recycle-bin entry that holds this row (bin/), or null while it is live. */
  @Column({ type: "varchar", length: 32, nullable: true })
  binnedIn: string | null;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @Field()
  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;
}

import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";

/** The owner of every stored row. Each user gets a personal tenant at sign-up (its id is the user's id); teams reuse it. */
@ObjectType()
@Entity()
export class Tenant {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Field()
  @Column({ type: "varchar", length: 128 })
  name: string;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;

  // Default models per type, as "name@Provider"; null means the built-in model of that type (models.service.ts).
  @Column({ type: "varchar", length: 330, nullable: true })
  defaultChatModel: string | null;

  @Column({ type: "varchar", length: 330, nullable: true })
  defaultEmbeddingModel: string | null;

  @Column({ type: "varchar", length: 330, nullable: true })
  defaultRerankModel: string | null;

  @Column({ type: "varchar", length: 330, nullable: true })
  defaultImg2txtModel: string | null;

  @Column({ type: "varchar", length: 330, nullable: true })
  defaultSequence2txtModel: string | null;

  @Column({ type: "varchar", length: 330, nullable: true })
  defaultTtsModel: string | null;
}

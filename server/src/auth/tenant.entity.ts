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
}

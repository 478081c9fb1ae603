import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";

/** A service-API key of a tenant. The token itself is shown once at creation; only its SHA-256 and a short hint are kept. */
@ObjectType()
@Entity()
export class ApiToken {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  @Column({ type: "varchar", length: 32 })
  createdBy: string;

  @Column({ type: "char", length: 64, unique: true })
  tokenHash: string;

  /** The first and last characters of the token ("ragflow-Ab…9xZ"), enough to tell keys apart. */
  @Field()
  @Column({ type: "varchar", length: 32 })
  hint: string;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @Field(() => Date, { nullable: true })
  @Column({ type: "timestamptz", nullable: true })
  lastUsedAt: Date | null;

  /** After this moment the key authenticates as nobody; null: it never expires. */
  @Field(() => Date, { nullable: true, description: "When the key stops working; null if it never expires." })
  @Column({ type: "timestamptz", nullable: true })
  expiresAt: Date | null;
}

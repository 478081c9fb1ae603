import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from "typeorm";

@ObjectType()
@Entity({ name: "app_user" })
export class User {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  /** Stored as typed at sign-up; unique case-insensitively (a functional index in the migration). Never changes. */
  @Field()
  @Column({ type: "varchar", length: 255 })
  email: string;

  /** Shown as "username" in the profile. */
  @Field()
  @Column({ type: "varchar", length: 100 })
  nickname: string;

  /** Null for an account made by an identity provider's sign-in, which has no password. */
  @Column({ type: "varchar", length: 255, nullable: true })
  passwordHash: string | null;

  /** A data URL of the profile photo, or null. */
  @Field(() => String, { nullable: true })
  @Column({ type: "text", nullable: true })
  avatar: string | null;

  @Field()
  @Column({ type: "varchar", length: 32, default: "en" })
  language: string;

  @Field()
  @Column({ type: "varchar", length: 16, default: "Bright" })
  colorSchema: string;

  @Field()
  @Column({ type: "varchar", length: 64, default: "UTC" })
  timezone: string;

  @Column({ type: "boolean", default: true })
  isActive: boolean;

  @Field(() => Date, { nullable: true })
  @Column({ type: "timestamptz", nullable: true })
  lastLoginAt: Date | null;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;

  @UpdateDateColumn({ type: "timestamptz" })
  updatedAt: Date;
}

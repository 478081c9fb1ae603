import { Field, ID, ObjectType } from "type-graphql";
import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";

/** An account at an identity provider that signs in as a Cairn user: one (provider, subject) is one user. */
@ObjectType({ description: "An account at an identity provider that signs in as this user." })
@Entity({ name: "user_identity" })
export class Identity {
  @Field(() => ID)
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  /** The provider's name in Cairn: github, google or oidc. */
  @Field()
  @Column({ type: "varchar", length: 32 })
  provider: string;

  /** The provider's own id of the account (GitHub's numeric id, OpenID Connect's `sub`): e-mail addresses change, this does not. */
  @Column({ type: "varchar", length: 255 })
  subject: string;

  @Column({ type: "varchar", length: 32 })
  userId: string;

  /** The address the provider gave at the last sign-in, to recognise the account by. */
  @Field(() => String, { nullable: true })
  @Column({ type: "varchar", length: 255, nullable: true })
  email: string | null;

  @Field()
  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}

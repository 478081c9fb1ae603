import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";

/** A signed-in browser or script. Only the SHA-256 of the bearer token is kept, so a database leak gives no usable token. */
@Entity()
export class AuthSession {
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  userId: string;

  @Column({ type: "char", length: 64, unique: true })
  tokenHash: string;

  @Column({ type: "boolean" })
  remember: boolean;

  @Column({ type: "timestamptz" })
  expiresAt: Date;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}

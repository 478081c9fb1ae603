import { Column, Entity, PrimaryColumn } from "typeorm";

/** Consecutive failed sign-ins for one e-mail address; kept in the database so every server process sees the same count. */
@Entity()
export class SignInThrottle {
  @PrimaryColumn({ type: "varchar", length: 255 })
  emailKey: string;

  @Column({ type: "integer" })
  failures: number;

  @Column({ type: "timestamptz", nullable: true })
  lockedUntil: Date | null;
}

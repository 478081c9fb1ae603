import { Column, Entity, PrimaryColumn } from "typeorm";

/** Recent events (failed sign-ins, sign-ups) under one key; kept in the database so every server process sees the same count. */
@Entity()
export class ThrottleCounter {
  @PrimaryColumn({ type: "varchar", length: 400 })
  key: string;

  @Column({ type: "integer" })
  events: number;

  @Column({ type: "timestamptz" })
  lastEventAt: Date;

  @Column({ type: "timestamptz", nullable: true })
  lockedUntil: Date | null;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from "typeorm";

/** How the invitation's e-mail went: not sent (no SMTP configured), sent, or failed (the owner may send it again). */
export type InvitationMail = "none" | "sent" | "failed";

/**
 * An invitation to join a team (a tenant), by e-mail address. `userId` is the invited account: set at once when the
 * address has one, or when the address signs up later; until then the invitation waits. Agreeing makes a
 * membership of the invitation's role and deletes the invitation; refusing or cancelling deletes it.
 */
@Entity()
export class TeamInvitation {
  @PrimaryColumn({ type: "varchar", length: 32 })
  id: string;

  @Column({ type: "varchar", length: 32 })
  tenantId: string;

  /** As the inviter typed it; one invitation per team and address, case-insensitively. */
  @Column({ type: "varchar", length: 255 })
  email: string;

  @Column({ type: "varchar", length: 32, nullable: true })
  userId: string | null;

  @Column({ type: "varchar", length: 32 })
  invitedBy: string;

  @Column({ type: "varchar", length: 8 })
  mail: InvitationMail;

  /** Why the last mail failed, for the inviter; null otherwise. */
  @Column({ type: "text", nullable: true })
  mailError: string | null;

  @CreateDateColumn({ type: "timestamptz" })
  createdAt: Date;
}

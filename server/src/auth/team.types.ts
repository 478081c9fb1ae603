import { Field, ID, ObjectType } from "type-graphql";

@ObjectType({ description: "A member of a team, with their role and the date they joined." })
export class TeamMember {
  @Field(() => ID)
  userId: string;

  @Field()
  nickname: string;

  @Field()
  email: string;

  @Field(() => String, { nullable: true })
  avatar: string | null;

  @Field({ description: "owner, admin or normal." })
  role: string;

  @Field()
  joinedAt: Date;
}

@ObjectType({ description: "An invitation to a team, as its team's owner and admins and the invited person see it." })
export class TeamInvitationView {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  tenantId: string;

  @Field()
  teamName: string;

  @Field()
  email: string;

  @Field()
  inviterNickname: string;

  @Field()
  inviterEmail: string;

  @Field()
  createdAt: Date;

  @Field({ description: "The address has no account yet: the invitation waits for it to sign up." })
  waitingForSignUp: boolean;

  @Field({ description: "The e-mail: none (no SMTP configured), sent or failed." })
  mail: string;

  @Field(() => String, { nullable: true, description: "Why the e-mail failed, for the team's owner and admins, who may send it again." })
  mailError: string | null;
}

@ObjectType({ description: "A team (a tenant) as one of its members sees it." })
export class Team {
  @Field(() => ID)
  tenantId: string;

  @Field()
  name: string;

  @Field({ description: "The signed-in person's role here: owner, admin or normal." })
  myRole: string;

  @Field(() => [TeamMember])
  members: TeamMember[];

  @Field(() => [TeamInvitationView], { description: "Invitations still pending." })
  invitations: TeamInvitationView[];
}

@ObjectType({ description: "A team the signed-in person joined." })
export class JoinedTeam {
  @Field(() => ID)
  tenantId: string;

  @Field()
  name: string;

  @Field()
  ownerNickname: string;

  @Field()
  ownerEmail: string;

  @Field()
  role: string;

  @Field()
  joinedAt: Date;
}

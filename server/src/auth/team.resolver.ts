import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { JoinedTeam, Team, TeamInvitationView, TeamMember } from "./team.types";

@Resolver()
export class TeamResolver {
  @Query(() => Team, { description: "A team with its members and pending invitations; my own by default." })
  team(@Ctx() context: GraphQLContext, @Arg("tenantId", () => ID, { nullable: true }) tenantId?: string | null): Promise<Team> {
    const principal = signedIn(context);
    return context.services.teams.team(principal, tenantId ?? undefined);
  }

  @Query(() => [JoinedTeam], { description: "The teams I joined, with their owners." })
  joinedTeams(@Ctx() context: GraphQLContext): Promise<JoinedTeam[]> {
    return context.services.teams.joinedTeams(signedIn(context));
  }

  @Query(() => [TeamInvitationView], { description: "Invitations to teams waiting for my answer." })
  teamInvitations(@Ctx() context: GraphQLContext): Promise<TeamInvitationView[]> {
    return context.services.teams.invitationsForMe(signedIn(context));
  }

  @Mutation(() => TeamInvitationView, { description: "Invites an address to a team (mine by default); an address without an account waits for its sign-up." })
  inviteTeamMember(@Arg("email") email: string, @Ctx() context: GraphQLContext, @Arg("tenantId", () => ID, { nullable: true }) tenantId?: string | null): Promise<TeamInvitationView> {
    return context.services.teams.invite(signedIn(context), email, tenantId ?? undefined);
  }

  @Mutation(() => TeamInvitationView, { description: "Sends a pending invitation's e-mail again." })
  resendTeamInvitation(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<TeamInvitationView> {
    return context.services.teams.resendInvitation(signedIn(context), id);
  }

  @Mutation(() => Boolean, { description: "Agrees to an invitation: I join the team as a normal member." })
  async agreeTeamInvitation(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.teams.agree(signedIn(context), id);
    return true;
  }

  @Mutation(() => Boolean, { description: "Refuses an invitation to me." })
  async refuseTeamInvitation(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.teams.dropInvitation(signedIn(context), id);
    return true;
  }

  @Mutation(() => Boolean, { description: "Cancels an invitation my team sent." })
  async cancelTeamInvitation(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.teams.dropInvitation(signedIn(context), id);
    return true;
  }

  @Mutation(() => Boolean, { description: "Leaves a team I joined." })
  async leaveTeam(@Arg("tenantId", () => ID) tenantId: string, @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.teams.leave(signedIn(context), tenantId);
    return true;
  }

  @Mutation(() => Boolean, { description: "Removes a member from a team (mine by default)." })
  async removeTeamMember(@Arg("userId", () => ID) userId: string, @Ctx() context: GraphQLContext, @Arg("tenantId", () => ID, { nullable: true }) tenantId?: string | null): Promise<boolean> {
    const principal = signedIn(context);
    await context.services.teams.remove(principal, tenantId ?? principal.tenantId, userId);
    return true;
  }

  @Mutation(() => TeamMember, { description: "Makes a member an admin or a normal member." })
  changeTeamRole(
    @Arg("userId", () => ID) userId: string,
    @Arg("role") role: string,
    @Ctx() context: GraphQLContext,
    @Arg("tenantId", () => ID, { nullable: true }) tenantId?: string | null,
  ): Promise<TeamMember> {
    const principal = signedIn(context);
    return context.services.teams.changeRole(principal, tenantId ?? principal.tenantId, userId, role);
  }

  @Mutation(() => TeamMember, { description: "Hands the team's ownership to a member; the previous owner stays as an admin." })
  transferTeamOwnership(@Arg("userId", () => ID) userId: string, @Ctx() context: GraphQLContext, @Arg("tenantId", () => ID, { nullable: true }) tenantId?: string | null): Promise<TeamMember> {
    const principal = signedIn(context);
    return context.services.teams.transferOwnership(principal, tenantId ?? principal.tenantId, userId);
  }
}

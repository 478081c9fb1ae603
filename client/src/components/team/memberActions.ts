/**
 * What my role lets me do to a member of my team, for the members table's menu. The server's team-membership policy
 * decides (and refuses anything else); this only keeps the menu from offering what it would refuse.
 */
export function memberActions(myRole: string, member: { userId: string; role: string }, me: string | undefined) {
  const managing = myRole === "owner" || myRole === "admin";
  const isOwner = member.role === "owner";
  return {
    makeAdmin: managing && !isOwner && member.role !== "admin",
    makeNormal: managing && !isOwner && member.role !== "normal",
    transfer: myRole === "owner" && !isOwner,
    remove: managing && !isOwner && member.userId !== me,
  };
}

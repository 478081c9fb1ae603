import { DomainError } from "../platform/errors";
import { ACTIONS, authorize, can, scope, scopeSql, type Action, type Resource } from ".";
import type { Membership, Principal, TenantRole } from "./principal";

/**
 * Every resource × action × role, against one tenant "t" whose owner is user "t" (a tenant's id is its owner's): its
 * owner, an admin "a" and a normal member "n" of its team, "i" invited and not yet agreed, and a stranger "o" (a
 * user of another tenant). Each cell lists the actions allowed, as letters: r(ead) u(se) m(anage) d(elete); every
 * letter absent is a denial that the table asserts.
 */

function membership(userId: string | null, role: TenantRole): Resource {
  return { kind: "teamMembership", tenantId: "t", userId, role };
}

function member(id: string, ...teams: Membership[]): Principal {
  return { kind: "session", user: { id, language: "English" }, tenantId: id, memberships: [{ tenantId: id, role: "owner" }, ...teams], sessionId: `s-${id}`, expiresAt: new Date(Date.now() + 60_000) };
}

const ROLES = {
  owner: member("t"),
  admin: member("a", { tenantId: "t", role: "admin" }),
  normal: member("n", { tenantId: "t", role: "normal" }),
  invited: member("i", { tenantId: "t", role: "invite" }),
  stranger: member("o"),
  share: { kind: "share", tenantId: "t", assistantId: "assistant", shareId: "link", visitorId: "visitor" },
  flowShare: { kind: "flowShare", tenantId: "t", flowId: "flow", shareId: "flowLink", visitorId: "visitor" },
  anonymous: { kind: "anonymous" },
} satisfies Record<string, Principal>;
type Role = keyof typeof ROLES;
type Expected = Record<Role, string>;

const NONE: Expected = { owner: "", admin: "", normal: "", invited: "", stranger: "", share: "", flowShare: "", anonymous: "" };
const OWNER_ONLY: Expected = { ...NONE, owner: "rumd" };
const TEAM_SHARED: Expected = { ...OWNER_ONLY, admin: "rumd", normal: "rum" };

const TABLE: [string, Resource, Expected][] = [
  ["a knowledge base only for me", { kind: "knowledgeBase", tenantId: "t", createdBy: "t", permission: "me" }, OWNER_ONLY],
  ["a knowledge base shared with the team", { kind: "knowledgeBase", tenantId: "t", createdBy: "t", permission: "team" }, TEAM_SHARED],
  ["a team knowledge base a normal member made", { kind: "knowledgeBase", tenantId: "t", createdBy: "n", permission: "team" }, { ...TEAM_SHARED, normal: "rumd" }],
  ["the shared assistant", { kind: "assistant", id: "assistant", tenantId: "t", createdBy: "t" }, { ...OWNER_ONLY, share: "ru" }],
  ["another assistant", { kind: "assistant", id: "other", tenantId: "t", createdBy: "t" }, OWNER_ONLY],
  ["a conversation in the app", { kind: "conversation", tenantId: "t", assistantId: "assistant", source: "web", userId: "t" }, OWNER_ONLY],
  ["a conversation over the API", { kind: "conversation", tenantId: "t", assistantId: "assistant", source: "api", userId: "t" }, OWNER_ONLY],
  ["the visitor's conversation on the share page", { kind: "conversation", tenantId: "t", assistantId: "assistant", source: "share", userId: "visitor" }, { ...NONE, share: "rumd" }],
  ["another visitor's conversation", { kind: "conversation", tenantId: "t", assistantId: "assistant", source: "share", userId: "someone" }, NONE],
  ["an API key", { kind: "apiToken", tenantId: "t" }, { ...NONE, owner: "rmd" }],
  ["the model settings", { kind: "modelSettings", tenantId: "t" }, OWNER_ONLY],
  ["the share link", { kind: "share", id: "link", tenantId: "t", assistantId: "assistant", createdBy: "t" }, { ...OWNER_ONLY, share: "u" }],
  ["another share link", { kind: "share", id: "other", tenantId: "t", assistantId: "other", createdBy: "t" }, OWNER_ONLY],
  ["a flow only for me", { kind: "flow", tenantId: "t", createdBy: "t", permission: "me" }, OWNER_ONLY],
  ["a flow shared with the team", { kind: "flow", tenantId: "t", createdBy: "t", permission: "team" }, TEAM_SHARED],
  ["the shared flow", { kind: "flow", id: "flow", tenantId: "t", createdBy: "t", permission: "me" }, { ...OWNER_ONLY, flowShare: "ru" }],
  ["another flow of the tenant", { kind: "flow", id: "other", tenantId: "t", createdBy: "t", permission: "me" }, OWNER_ONLY],
  ["a session of a flow in the run drawer", { kind: "flowSession", tenantId: "t", flowId: "flow", source: "web", userId: "t" }, { ...NONE, owner: "rumd", admin: "rumd", normal: "rumd" }],
  ["the visitor's session of the shared flow", { kind: "flowSession", tenantId: "t", flowId: "flow", source: "share", userId: "visitor" }, { ...NONE, owner: "rumd", admin: "rumd", normal: "rumd", flowShare: "ru" }],
  ["another visitor's session of the shared flow", { kind: "flowSession", tenantId: "t", flowId: "flow", source: "share", userId: "someone" }, { ...NONE, owner: "rumd", admin: "rumd", normal: "rumd" }],
  ["a session of another flow", { kind: "flowSession", tenantId: "t", flowId: "other", source: "share", userId: "visitor" }, { ...NONE, owner: "rumd", admin: "rumd", normal: "rumd" }],
  ["the flow's share link", { kind: "flowShare", id: "flowLink", tenantId: "t", flowId: "flow", createdBy: "t" }, { ...OWNER_ONLY, flowShare: "u" }],
  ["a share link a normal member made of a flow", { kind: "flowShare", id: "made", tenantId: "t", flowId: "flow", createdBy: "n" }, OWNER_ONLY],
  ["a private file", { kind: "file", tenantId: "t", createdBy: "t", inTeamKnowledgeBase: false }, OWNER_ONLY],
  ["a file in a team knowledge base", { kind: "file", tenantId: "t", createdBy: "t", inTeamKnowledgeBase: true }, { ...TEAM_SHARED, normal: "ru" }],
  ["a file in a team knowledge base a normal member made", { kind: "file", tenantId: "t", createdBy: "n", inTeamKnowledgeBase: true }, { ...TEAM_SHARED, normal: "rumd" }],
  ["the owner's membership", membership("t", "owner"), { ...NONE, owner: "rm", admin: "r", normal: "r" }],
  ["an admin's membership", membership("a", "admin"), { ...NONE, owner: "rmd", admin: "rmd", normal: "r" }],
  ["a normal member's membership", membership("n", "normal"), { ...NONE, owner: "rmd", admin: "rmd", normal: "rd" }],
  ["another normal member's membership", membership("m", "normal"), { ...NONE, owner: "rmd", admin: "rmd", normal: "r" }],
  ["the invitation of i", membership("i", "invite"), { ...NONE, owner: "rmd", admin: "rmd", normal: "r", invited: "rud" }],
  ["an invitation waiting for an address to sign up", membership(null, "invite"), { ...NONE, owner: "rmd", admin: "rmd", normal: "r" }],
  ["a bin entry the owner deleted", { kind: "binEntry", tenantId: "t", binnedBy: "t" }, OWNER_ONLY],
  ["a bin entry a normal member deleted", { kind: "binEntry", tenantId: "t", binnedBy: "n" }, { ...OWNER_ONLY, normal: "rumd" }],
  ["a bin entry of one who has since left the team", { kind: "binEntry", tenantId: "t", binnedBy: "o" }, OWNER_ONLY],
  ["the stranger's place in its own team", { kind: "teamMembership", tenantId: "o", userId: "o", role: "owner" }, { ...NONE, stranger: "rm" }],
];

/**
 * A document is answered by its knowledge base's policy (knowledge/document.service.ts): reading, retrieving from
 * and changing it are those of its base, and deleting one is changing the base.
 */
const DOCUMENT_ACTION: Record<Action, Action> = { read: "read", use: "use", manage: "manage", delete: "manage" };
const DOCUMENTS: [string, Resource, Expected][] = [
  ["a document of a knowledge base only for me", { kind: "knowledgeBase", tenantId: "t", createdBy: "t", permission: "me" }, OWNER_ONLY],
  ["a document of a knowledge base shared with the team", { kind: "knowledgeBase", tenantId: "t", createdBy: "t", permission: "team" }, { ...TEAM_SHARED, normal: "rumd" }],
];

const LETTER: Record<Action, string> = { read: "r", use: "u", manage: "m", delete: "d" };
const allowed = (principal: Principal, resource: Resource) => ACTIONS.filter((action) => can(principal, action, resource)).map((a) => LETTER[a]).join("");

describe.each(TABLE)("%s", (_name, resource, expected) => {
  it.each(Object.keys(ROLES) as Role[])("allows %s exactly what the table says", (role) => {
    expect(allowed(ROLES[role], resource)).toBe(expected[role]);
  });
});

describe.each(DOCUMENTS)("%s", (_name, knowledgeBase, expected) => {
  it.each(Object.keys(ROLES) as Role[])("allows %s exactly what the table says", (role) => {
    const allowedOnDocument = ACTIONS.filter((action) => can(ROLES[role], DOCUMENT_ACTION[action], knowledgeBase)).map((a) => LETTER[a]).join("");
    expect(allowedOnDocument).toBe(expected[role]);
  });
});

describe("refusals", () => {
  const teamBase: Resource = { kind: "knowledgeBase", tenantId: "t", createdBy: "t", permission: "team" };

  it("tells a team member who may change a knowledge base that only its owner, admins or maker delete it", () => {
    expect(() => authorize(ROLES.normal, "manage", teamBase)).not.toThrow();
    expect(() => authorize(ROLES.normal, "delete", teamBase)).toThrow(expect.objectContaining({ kind: "FORBIDDEN", messageKey: "errors.knowledge.ownerOnly" }));
  });

  it("answers one who may not read it as if it did not exist", () => {
    for (const principal of [ROLES.invited, ROLES.stranger, ROLES.share, ROLES.anonymous]) {
      let refusal: unknown;
      try {
        authorize(principal, "delete", teamBase);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(DomainError);
      expect(refusal).toMatchObject({ kind: "NOT_FOUND", messageKey: "errors.knowledge.notFound" });
    }
  });

  it("counts a user's own tenant as theirs before any membership row says so", () => {
    const fresh: Principal = { ...(ROLES.owner as Extract<Principal, { kind: "session" }>), memberships: [] };
    expect(can(fresh, "delete", teamBase)).toBe(true);
  });
});

describe("scopeSql", () => {
  it("lists nothing when no clause allows", () => {
    expect(scopeSql(scope(ROLES.anonymous, "read", "knowledgeBase"), "kb").sql).toBe("FALSE");
  });

  it("names each field of the alias with its own parameters", () => {
    const { sql, params } = scopeSql(scope(ROLES.normal, "read", "knowledgeBase"), "kb");
    expect(sql).toMatch(/^\(\(kb\.tenantId IN \(:\.\.\.scope\d+\)\) OR \(kb\.tenantId IN \(:\.\.\.scope\d+\) AND kb\.permission = :scope\d+\)\)$/);
    expect(Object.values(params)).toEqual([["n"], ["n", "t"], "team"]);
  });
});

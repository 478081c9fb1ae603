import { Forbidden, NotFound } from "../platform/errors";
import type { Principal } from "./principal";
import { matches, type Action, type Clause, type Policy } from "./rules";
import { apiTokenPolicy, type ApiTokenResource } from "./api-token.policy";
import { binEntryPolicy, type BinEntryResource } from "./bin-entry.policy";
import { assistantPolicy, type AssistantResource } from "./assistant.policy";
import { conversationPolicy, type ConversationResource } from "./conversation.policy";
import { filePolicy, type FileResource } from "./file.policy";
import { flowPolicy, type FlowResource } from "./flow.policy";
import { flowSessionPolicy, type FlowSessionResource } from "./flow-session.policy";
import { flowSharePolicy, type FlowShareResource } from "./flow-share.policy";
import { knowledgeBasePolicy, type KnowledgeBaseResource } from "./knowledge-base.policy";
import { modelSettingsPolicy, type ModelSettingsResource } from "./model-settings.policy";
import { searchRecordPolicy, type SearchRecordResource } from "./search-record.policy";
import { sharePolicy, type ShareResource } from "./share.policy";
import { teamMembershipPolicy, type TeamMembershipResource } from "./team-membership.policy";

/**
 * Who may do what, in one place (CONVENTIONS §1): every service asks `authorize` before it acts on a resource and
 * filters its lists with `scope`. Resources are described by their fields, so that this ground needs no domain.
 */

export type { Action, Clause } from "./rules";
export { ACTIONS } from "./rules";
export type { ApiTokenResource, AssistantResource, BinEntryResource, ConversationResource, FileResource, FlowResource, FlowSessionResource, FlowShareResource, KnowledgeBaseResource, ModelSettingsResource, SearchRecordResource, ShareResource, TeamMembershipResource };

export type Resource =
  | KnowledgeBaseResource
  | AssistantResource
  | ConversationResource
  | ApiTokenResource
  | ModelSettingsResource
  | ShareResource
  | FlowResource
  | FlowSessionResource
  | FlowShareResource
  | FileResource
  | SearchRecordResource
  | TeamMembershipResource
  | BinEntryResource;
export type ResourceKind = Resource["kind"];

export const POLICIES: Record<ResourceKind, Policy> = {
  knowledgeBase: knowledgeBasePolicy,
  assistant: assistantPolicy,
  conversation: conversationPolicy,
  apiToken: apiTokenPolicy,
  modelSettings: modelSettingsPolicy,
  share: sharePolicy,
  flow: flowPolicy,
  flowSession: flowSessionPolicy,
  flowShare: flowSharePolicy,
  file: filePolicy,
  searchRecord: searchRecordPolicy,
  teamMembership: teamMembershipPolicy,
  binEntry: binEntryPolicy,
};

export function can(principal: Principal, action: Action, resource: Resource): boolean {
  return POLICIES[resource.kind].rules(principal, action).some((clause) => matches(clause, resource));
}

/**
 * Throws unless the principal may: NOT_FOUND when it may not even read the resource (a refusal must not tell
 * that it exists), FORBIDDEN when it may read it but not do this.
 */
export function authorize(principal: Principal, action: Action, resource: Resource): void {
  if (can(principal, action, resource)) return;
  const policy = POLICIES[resource.kind];
  throw can(principal, "read", resource) ? Forbidden(policy.forbidden) : NotFound(policy.notFound);
}

/** The resources of a kind the principal may act on so, as clauses over their fields; none: nothing. */
export function scope(principal: Principal, action: Action, kind: ResourceKind): Clause[] {
  return POLICIES[kind].rules(principal, action);
}

let parameterCount = 0;

/**
 * A scope as a SQL condition, the clauses' structure written once: `condition` turns one field's allowed value (a
 * value, or a non-empty list of them) into SQL. A list with no values matches nothing, and no clause becomes FALSE,
 * so that an empty scope lists nothing.
 */
export function scopeCondition(clauses: Clause[], condition: (field: string, allowed: string | boolean | readonly string[]) => string): string {
  const disjuncts = clauses.map((clause) => {
    const conditions = Object.entries(clause).map(([field, value]) => (Array.isArray(value) && value.length === 0 ? "FALSE" : condition(field, value)));
    return conditions.length === 0 ? "TRUE" : `(${conditions.join(" AND ")})`;
  });
  return disjuncts.length === 0 ? "FALSE" : `(${disjuncts.join(" OR ")})`;
}

/**
 * A scope as a TypeORM query-builder condition over `alias` (whose property names are the clauses' fields), with
 * its named parameters: `builder.where(sql, params)`.
 */
export function scopeSql(clauses: Clause[], alias: string): { sql: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  const sql = scopeCondition(clauses, (field, value) => {
    const name = `scope${++parameterCount}`;
    params[name] = value;
    return Array.isArray(value) ? `${alias}.${field} IN (:...${name})` : `${alias}.${field} = :${name}`;
  });
  return { sql, params };
}

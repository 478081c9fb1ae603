import { WorkKind } from "../../bin/work-kind";
import type { AssistantService } from "../../chat/assistant.service";
import type { ConversationService } from "../../chat/conversation.service";
import type { AssistantResource } from "../../policies";
import { escapeLike } from "../../platform/sql";
import { readableWhere, snakeColumn, type WorkRow, type WorkSource } from "../work-source";
import { emptyPreview } from "../work.types";

/** How many of the last conversation's messages an assistant's slide shows. */
export const PREVIEW_MESSAGES = 6;

/**
 * Chat assistants (live: `status` '1', and not in the bin); their activity is their own last change or their latest
 * conversation's (held in the app or over the API; a share page's visitors' are theirs), whichever is later.
 */
export function assistantWorks(assistants: AssistantService, conversations: ConversationService): WorkSource {
  return {
    kind: WorkKind.assistant,
    renamable: true,
    // A share link: whoever may change the assistant publishes it (ShareService).
    mayShare: (_principal, _row, manage) => manage,
    select(principal, search, bind) {
      return `SELECT '${WorkKind.assistant}' AS kind, a.id, a.name, a.description, NULL::text AS variant, NULL::varchar AS parent_id,
          json_build_object('knowledgeBases', jsonb_array_length(a.kb_ids)) AS counts,
          GREATEST(a.updated_at, (SELECT max(c.updated_at) FROM chat_conversation c WHERE c.assistant_id = a.id AND c.source IN ('web', 'api') AND c.binned_in IS NULL)) AS activity_at,
          FALSE AS team_shared, a.created_by,
          jsonb_build_object('id', a.id, 'tenantId', a.tenant_id, 'createdBy', a.created_by) AS resource
        FROM chat_assistant a
        WHERE a.status = '1' AND a.binned_in IS NULL AND ${readableWhere(principal, "assistant", snakeColumn("a"), bind)}${search ? ` AND a.name ILIKE ${bind(`%${escapeLike(search)}%`)}` : ""}`;
    },
    resource: (row: WorkRow): AssistantResource => ({ kind: "assistant", ...(row.resource as Omit<AssistantResource, "kind">) }),
    async preview(principal, id) {
      await assistants.get(principal, id);
      const [last] = await conversations.list({ principal }, id);
      if (!last) return emptyPreview();
      const messages = (await conversations.messagesOf([last.id])).get(last.id) ?? [];
      return { ...emptyPreview(), conversationName: last.name, messages: messages.slice(-PREVIEW_MESSAGES).map((m) => ({ role: m.role, content: m.content })) };
    },
  };
}

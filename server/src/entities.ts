import { ApiToken } from "./auth/api-token.entity";
import { AuthSession } from "./auth/auth-session.entity";
import { ThrottleCounter } from "./auth/throttle-counter.entity";
import { TeamInvitation } from "./auth/team-invitation.entity";
import { TenantMember } from "./auth/tenant-member.entity";
import { Tenant } from "./auth/tenant.entity";
import { User } from "./auth/user.entity";
import { Identity } from "./auth/identity/identity.entity";
import { BinEntry } from "./bin/bin-entry.entity";
import { ChatAssistant } from "./chat/assistant.entity";
import { ChatShare } from "./chat/share.entity";
import { Conversation } from "./chat/conversation.entity";
import { Message } from "./chat/message.entity";
import { Chunk } from "./knowledge/chunk.entity";
import { Document } from "./knowledge/document.entity";
import { KbTask } from "./knowledge/kb-tasks/kb-task.entity";
import { KnowledgeBase } from "./knowledge/knowledge-base.entity";
import { ModelEntry } from "./models/model-entry.entity";
import { FLOW_ENTITIES } from "./flows/entities";
import { FILE_ENTITIES } from "./files/entities";
import { SEARCH_ENTITIES } from "./search/entities";

/** Every TypeORM entity; the schema itself is created by the migrations in migrations/. */
export const entities = [Tenant, User, TenantMember, TeamInvitation, AuthSession, Identity, ThrottleCounter, ApiToken, ModelEntry, KnowledgeBase, Document, Chunk, KbTask, ChatAssistant, ChatShare, Conversation, Message, ...FLOW_ENTITIES, ...FILE_ENTITIES, BinEntry, ...SEARCH_ENTITIES];

import type { AssistantService } from "./assistant.service";
import type { ConversationService } from "./conversation.service";
import type { ShareService } from "./share.service";

declare module "../platform/services" {
  interface Services {
    assistants: AssistantService;
    shares: ShareService;
    conversations: ConversationService;
  }
}

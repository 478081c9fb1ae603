import type { ModelsService } from "../models/models.service";
import { DomainError } from "../platform/errors";
import { localizedMessage } from "../platform/messages";
import { outboundFetch, outboundPolicy } from "../platform/outbound";
import type { Platform } from "../platform";
import type { SignedIn } from "../policies/principal";
import type { KnowledgeBaseLookups, RetrievalService } from "../retrieval/retrieval.service";
import type { FlowPorts } from "./ports";
import { localeOf, type FlowService } from "./flow.service";

// One policy per setting, so that connections pooled under it are reused from run to run.
const PUBLIC_ONLY = outboundPolicy({ privateNetworks: false, redirects: "any" });
const WITH_PRIVATE_NETWORKS = outboundPolicy({ privateNetworks: true, redirects: "any" });

/** What the ports of a run are made of. */
export interface PortServices {
  platform: Platform;
  models: ModelsService;
  retrieval: RetrievalService;
  flows: Pick<FlowService, "secrets">;
}

/**
 * The ports of a run for the one who runs it. A chat model the tenant does not have (a RAGFlow template names
 * "deepseek-chat") is replaced by the tenant's default, and `notes` says so in the runner's language; retrieval
 * reads what the runner may read (the knowledge bases `lookedUp` ahead for the runner, or looked up as asked); every
 * request goes through the outbound guard with the flows' policy.
 */
export function flowPorts(services: PortServices, principal: SignedIn, notes: string[], lookedUp?: KnowledgeBaseLookups): FlowPorts {
  const language = localeOf(principal);
  const policy = services.platform.config.flowPrivateAddresses ? WITH_PRIVATE_NETWORKS : PUBLIC_ONLY;
  return {
    tenantId: principal.tenantId,
    principal,
    language,
    async chatModel(llmId) {
      if (!llmId) return services.models.client(principal.tenantId, "chat");
      try {
        return await services.models.client(principal.tenantId, "chat", llmId);
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === "NOT_FOUND")) throw error;
        const fallback = (await services.models.defaults(principal.tenantId)).chat;
        const note = localizedMessage(language, "flow.notes.modelSubstituted", { requested: llmId, used: fallback });
        if (!notes.includes(note)) notes.push(note);
        return services.models.client(principal.tenantId, "chat");
      }
    },
    retrieve: (request) => services.retrieval.retrieve(principal, request, lookedUp),
    fetch: (url, request = {}) => outboundFetch(url, request, policy),
    outboundPolicy: policy,
    openSecret: (value) => services.flows.secrets.open(value),
  };
}

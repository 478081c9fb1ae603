import type { ChatModel } from "../models/model-types";
import type { OutboundPolicy, OutboundRequest } from "../platform/outbound";
import type { Locale } from "../platform/messages";
import type { SignedIn } from "../policies/principal";
import type { RetrievalRequest, RetrievalResult } from "../retrieval/retrieval.service";

/**
 * What a flow run reaches outside itself, given by the run service for the one who runs it. Components use
 * nothing else: so a run reads only the knowledge bases its runner may read, every outbound request passes the
 * one guard (platform/outbound.ts), and tests give local servers in place of the vendors.
 */
export interface FlowPorts {
  tenantId: string;
  /** Who runs the flow: what retrieval may read and what the policies check. */
  principal: SignedIn;
  /** The language of the runner: component errors and notes are told in it. */
  language: Locale;
  /**
   * A chat model of the tenant by id ("name@provider"). A missing or unknown id (a RAGFlow template names
   * "deepseek-chat") gives the tenant's default chat model, and `notes` records the substitution.
   */
  chatModel(llmId?: string | null): Promise<ChatModel>;
  /** Hybrid retrieval over knowledge bases the runner may read (the one retrieval service). */
  retrieve(request: RetrievalRequest): Promise<RetrievalResult>;
  /** An HTTP request through the outbound guard, with the flow tools' policy. */
  fetch(url: string | URL, request?: OutboundRequest): Promise<Response>;
  /**
   * The address policy `fetch` applies, for components that open their own connections (ExeSQL's database
   * drivers) so that they reach no address `fetch` would refuse. Without it, only public addresses.
   */
  outboundPolicy?: OutboundPolicy;
  /**
   * The text of a stored secret param (flow-secrets.ts), for the component about to run: secrets are opened here
   * only. Without it, values are used as they are (tests that give their own).
   */
  openSecret?: (value: unknown) => string;
  /** Vendor base URLs by component name, for tests that stand local servers in for the vendors. */
  baseUrls?: Readonly<Record<string, string>>;
}

import { IsNull, type Repository } from "typeorm";
import type { ApiTokenService } from "../auth/api-token.service";
import { userWithMemberships } from "../auth/memberships";
import { authorize, can, type FlowShareResource } from "../policies";
import type { FlowSharePrincipal, SignedIn } from "../policies/principal";
import { DomainError, Unauthenticated } from "../platform/errors";
import { randomToken } from "../platform/ids";
import type { Platform } from "../platform";
import { Flow } from "./flow.entity";
import type { FlowService } from "./flow.service";
import { FlowShare } from "./flow-share.entity";

/** A flow's share link as the policy sees it. */
const shareResource = (share: FlowShare): FlowShareResource => ({ kind: "flowShare", id: share.id, tenantId: share.tenantId, flowId: share.flowId, createdBy: share.createdBy });

/**
 * Public shares of flows (spec §2, API publishing), as assistants are shared (chat/share.service.ts): the publish
 * dialog's share page, iframe and widget carry the share token, which the share page sends as its bearer credential.
 * Its visitors run that one flow, each in their own sessions, with the access of whoever shared it.
 */
export class FlowShareService {
  private readonly shares: Repository<FlowShare>;

  constructor(
    private readonly platform: Platform,
    private readonly flows: FlowService,
    private readonly apiTokens: ApiTokenService,
  ) {
    this.shares = platform.db.getRepository(FlowShare);
  }

  /** The flow's share, or null when it is not shared. */
  async get(principal: SignedIn, flowId: string): Promise<FlowShare | null> {
    const flow = await this.flows.accessible(principal, flowId, "read");
    const share = await this.shares.findOneBy({ flowId: flow.id });
    return share && can(principal, "read", shareResource(share)) ? share : null;
  }

  /**
   * The flow's share, created on the first request and the same afterwards. As for an assistant (and RAGFlow),
   * sharing needs an API token of the tenant first (spec §5: "please create API Token first").
   */
  async share(principal: SignedIn, flowId: string): Promise<FlowShare> {
    // Publishing a flow changes who can reach it: those who may change the flow do it.
    const flow = await this.flows.accessible(principal, flowId, "manage");
    if ((await this.apiTokens.list(principal)).length === 0) throw new DomainError("BAD_REQUEST", "errors.createApiTokenFirst");
    // Two first requests at once: the unique index on flow_id keeps one share, and both get it.
    await this.shares
      .createQueryBuilder()
      .insert()
      .values({ id: randomToken(32), tenantId: flow.tenantId, flowId: flow.id, createdBy: principal.user.id })
      .orIgnore()
      .execute();
    return this.shares.findOneByOrFail({ flowId: flow.id });
  }

  /** Ends the share: its token stops working at once. False when the flow was not shared. */
  async revoke(principal: SignedIn, flowId: string): Promise<boolean> {
    const flow = await this.flows.accessible(principal, flowId, "read");
    const share = await this.shares.findOneBy({ flowId: flow.id });
    if (!share) return false;
    authorize(principal, "delete", shareResource(share));
    const { affected } = await this.shares.delete({ id: share.id });
    return (affected ?? 0) > 0;
  }

  /** The principal of a live share token of a flow that still exists, else null. */
  async authenticate(token: string): Promise<FlowSharePrincipal | null> {
    if (token.length > 64) return null;
    const share = await this.shares.findOneBy({ id: token });
    if (!share || !(await this.platform.db.getRepository(Flow).existsBy({ id: share.flowId, binnedIn: IsNull() }))) return null;
    return { kind: "flowShare", tenantId: share.tenantId, flowId: share.flowId, shareId: share.id };
  }

  /**
   * Who a visitor's turn runs as: the one who shared the flow, in the flow's tenant, as the service API's caller would
   * be (RAGFlow runs a shared agent as the tenant of its token). So a run reads what the sharer may read and uses the
   * tenant's models; the run service still asks the policies what the visitor may reach. Refused once the share is
   * revoked or its maker's account is gone.
   */
  async runnerOf(principal: FlowSharePrincipal): Promise<SignedIn> {
    const share = await this.shares.findOneBy({ id: principal.shareId });
    if (share) authorize(principal, "use", shareResource(share));
    const maker = share ? await userWithMemberships(this.platform.db, share.createdBy) : null;
    if (!share || !maker || !maker.active) throw Unauthenticated();
    return { kind: "apiToken", user: maker.user, tenantId: share.tenantId, memberships: maker.memberships, tokenId: share.id, expiresAt: null };
  }
}

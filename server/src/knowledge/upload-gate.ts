import type { UploadLimits } from "../platform/config";
import { DomainError, TooManyRequests } from "../platform/errors";

/** One upload's place at the gate: the bytes it has received, and its way out. */
export interface UploadPass {
  readonly tenantId: string;
  /** Counts `bytes` more against the tenant's quota; throws, counting nothing, when they would pass it. */
  take(bytes: number, storedBytes: number): void;
  /** Gives back what `take` counted for bytes that will not be stored after all. */
  giveBack(bytes: number): void;
  /** Leaves the gate: the upload's files are in the database now, or deleted. Idempotent. */
  leave(): void;
}

interface TenantUsage {
  uploads: number;
  /** Bytes received by this process's uploads whose documents are not in the database yet. */
  bytesInFlight: number;
}

/**
 * The uploads this process is receiving: at most `perProcess` at once and `perTenant` per tenant, and with a
 * quota, a tenant's stored bytes plus those of its uploads under way never pass it. Processes do not share this
 * count: with several servers, a tenant can overshoot its quota by what its uploads in other processes carry.
 */
export class UploadGate {
  private running = 0;
  private readonly tenants = new Map<string, TenantUsage>();

  constructor(private readonly limits: UploadLimits) {}

  get quotaBytes(): number | undefined {
    return this.limits.tenantQuotaBytes;
  }

  /** Lets an upload of `tenantId` in, or refuses it with TOO_MANY_REQUESTS. */
  enter(tenantId: string): UploadPass {
    const usage = this.tenants.get(tenantId) ?? { uploads: 0, bytesInFlight: 0 };
    if (this.running >= this.limits.perProcess || usage.uploads >= this.limits.perTenant) throw TooManyRequests("errors.knowledge.tooManyUploads");
    this.running++;
    usage.uploads++;
    this.tenants.set(tenantId, usage);
    let counted = 0;
    let left = false;
    const quota = this.limits.tenantQuotaBytes;
    return {
      tenantId,
      take: (bytes, storedBytes) => {
        if (quota !== undefined && storedBytes + usage.bytesInFlight + bytes > quota) {
          throw new DomainError("INSUFFICIENT_STORAGE", "errors.knowledge.storageQuotaExceeded", { quota: Math.round(quota / (1024 * 1024)) });
        }
        usage.bytesInFlight += bytes;
        counted += bytes;
      },
      giveBack: (bytes) => {
        usage.bytesInFlight -= bytes;
        counted -= bytes;
      },
      leave: () => {
        if (left) return;
        left = true;
        this.running--;
        usage.uploads--;
        usage.bytesInFlight -= counted;
        if (usage.uploads === 0) this.tenants.delete(tenantId);
      },
    };
  }
}

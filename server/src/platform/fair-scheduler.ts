import { TooManyRequests } from "./errors";

export interface FairSchedulerLimits {
  /** Pieces of heavy work running at once, all tenants together. */
  slots: number;
  /** Pieces one tenant may run at once; below `slots`, so that a flood of one tenant leaves room for the others. */
  slotsPerTenant: number;
}

/**
 * Waiting work per tenant beyond which a tenant's new work is refused: a flood queues behind itself, and
 * this bounds how much of it the process holds.
 */
const QUEUE_PER_TENANT = 256;

/**
 * Heavy work (retrieval's scans and scoring, and so the answers built on it) takes a slot first. The
 * embedded database runs one query at a time for everyone, so without slots a tenant sending a hundred
 * retrievals puts hundreds of queries ahead of another tenant's sign-in check. With them, a tenant's work
 * waits behind that tenant's own, and free slots go round-robin across the tenants that wait: another
 * tenant's light query waits for at most `slots` heavy queries, and its heavy request for one turn.
 */
export class FairScheduler {
  private running = 0;
  private readonly runningByTenant = new Map<string, number>();
  /** Tenants with waiting work, in the order they are served next; a tenant served goes to the back. */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly limits: FairSchedulerLimits) {}

  async run<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    await this.acquire(tenantId);
    try {
      return await work();
    } finally {
      this.release(tenantId);
    }
  }

  /** Work running and waiting now: what a test or an operator looks at. */
  load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.waiting.values()) waiting += queue.length;
    return { running: this.running, waiting };
  }

  private hasRoom(tenantId: string): boolean {
    return this.running < this.limits.slots && (this.runningByTenant.get(tenantId) ?? 0) < this.limits.slotsPerTenant;
  }

  private start(tenantId: string): void {
    this.running++;
    this.runningByTenant.set(tenantId, (this.runningByTenant.get(tenantId) ?? 0) + 1);
  }

  private acquire(tenantId: string): Promise<void> {
    // Nobody waits ahead of a tenant that has room: it starts at once.
    if (this.hasRoom(tenantId) && !this.waiting.has(tenantId)) {
      this.start(tenantId);
      return Promise.resolve();
    }
    const queue = this.waiting.get(tenantId) ?? [];
    if (queue.length >= QUEUE_PER_TENANT) return Promise.reject(TooManyRequests("errors.busy"));
    this.waiting.set(tenantId, queue);
    return new Promise((resolve) => queue.push(resolve));
  }

  private release(tenantId: string): void {
    this.running--;
    const left = (this.runningByTenant.get(tenantId) ?? 1) - 1;
    if (left > 0) this.runningByTenant.set(tenantId, left);
    else this.runningByTenant.delete(tenantId);
    // The tenant that just had its turn waits behind the others for its next one.
    const queue = this.waiting.get(tenantId);
    if (queue) {
      this.waiting.delete(tenantId);
      this.waiting.set(tenantId, queue);
    }
    this.dispatch();
  }

  private dispatch(): void {
    while (this.running < this.limits.slots) {
      const next = [...this.waiting.keys()].find((tenantId) => this.hasRoom(tenantId));
      if (next === undefined) return;
      const queue = this.waiting.get(next)!;
      const resolve = queue.shift()!;
      this.waiting.delete(next);
      if (queue.length > 0) this.waiting.set(next, queue); // to the back of the round
      this.start(next);
      resolve();
    }
  }
}

interface Submitted<I, O> {
  item: I;
  resolve(output: O): void;
  reject(error: unknown): void;
}

export interface GroupedStatementOptions<I> {
  /** Most items one statement takes. */
  maxItems: number;
  /** Items of one key never share a statement (writes that would collide, such as two questions in one conversation). */
  key?: (item: I) => string;
}

/**
 * Group commit, for reads and writes alike: an item that finds no statement under way goes at once, alone; the
 * items submitted while a statement is under way go together in the next, one statement for all of them. Nothing
 * waits for company, and every item's statement starts after it was submitted, so it sees every commit that came
 * before (a credential deleted by a sign-out is never found by a request that came after it). Each submitter
 * learns its own item's outcome once its statement is done. In embedded mode each statement is a round trip to
 * the database's thread, and a burst of requests that each ran their own would queue a statement apiece. When a
 * statement of several items fails, each is run again alone (all at once), so that one item's failure is its own.
 */
export class GroupedStatement<I, O> {
  private waiting: Submitted<I, O>[] = [];
  private running = false;

  /** `run` gets the items and returns one output per item, in their order. */
  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: GroupedStatementOptions<I>,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) await this.runBatch(this.nextBatch());
    } finally {
      this.running = false;
    }
  }

  /** The oldest waiting items, at most maxItems, at most one of each key; the others keep their place. */
  private nextBatch(): Submitted<I, O>[] {
    const { key, maxItems } = this.options;
    if (!key) return this.waiting.splice(0, maxItems);
    const keys = new Set<string>();
    const batch: Submitted<I, O>[] = [];
    const left: Submitted<I, O>[] = [];
    for (const submitted of this.waiting) {
      const k = key(submitted.item);
      if (batch.length < maxItems && !keys.has(k)) {
        keys.add(k);
        batch.push(submitted);
      } else left.push(submitted);
    }
    this.waiting = left;
    return batch;
  }

  private async runBatch(batch: Submitted<I, O>[]): Promise<void> {
    try {
      const outputs = await this.run(batch.map((submitted) => submitted.item));
      batch.forEach((submitted, i) => submitted.resolve(outputs[i]));
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      // All at once: when the database is down, each fails within one statement's time, not one after the other.
      else await Promise.all(batch.map((submitted) => this.runBatch([submitted])));
    }
  }
}

/**
 * The outputs of a grouped read, one per key in order: a key asked twice in one statement (two requests for one
 * row) gets its own copy the second time, so that no two requests share an object one of them might change.
 */
export function outputsByKey<V>(keys: string[], found: Map<string, V>, copy: (value: V) => V): (V | null)[] {
  const given = new Set<string>();
  return keys.map((key) => {
    const value = found.get(key);
    if (value === undefined) return null;
    if (!given.has(key)) {
      given.add(key);
      return value;
    }
    return copy(value);
  });
}

/** A deep copy of an entity read from the database (its own class, its JSON columns and dates copied too), for outputsByKey. */
export function copyEntity<T extends object>(entity: T): T {
  return Object.assign(Object.create(Object.getPrototypeOf(entity)) as T, structuredClone({ ...entity }));
}

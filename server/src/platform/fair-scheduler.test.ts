import { FairScheduler } from "./fair-scheduler";

/** Work that runs until the test lets it finish, noting when it started. */
function gate(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => (started.push(name), done), finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("the fair scheduler of heavy work", () => {
  test("one tenant never holds every slot: another tenant's work starts at once", async () => {
    const scheduler = new FairScheduler({ slots: 3, slotsPerTenant: 2 });
    const started: string[] = [];
    const flood = Array.from({ length: 10 }, (_, i) => gate(started, `a${i}`));
    const running = flood.map((g) => scheduler.run("a", g.work));
    const other = gate(started, "b0");
    const otherRun = scheduler.run("b", other.work);
    await settle();
    expect(started).toEqual(["a0", "a1", "b0"]);
    expect(scheduler.load()).toEqual({ running: 3, waiting: 8 });
    other.finish();
    await otherRun;
    flood.forEach((g) => g.finish());
    await Promise.all(running);
    expect(started).toHaveLength(11);
    expect(scheduler.load()).toEqual({ running: 0, waiting: 0 });
  });

  test("free slots go round-robin across the tenants that wait", async () => {
    const scheduler = new FairScheduler({ slots: 1, slotsPerTenant: 1 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const runs: Promise<void>[] = [];
    for (const name of ["a0", "a1", "a2", "b0", "b1", "c0"]) {
      const g = gate(started, name);
      gates.set(name, g);
      runs.push(scheduler.run(name[0], g.work));
    }
    for (let i = 0; i < 6; i++) {
      await settle();
      gates.get(started[i])!.finish();
    }
    await Promise.all(runs);
    expect(started).toEqual(["a0", "b0", "c0", "a1", "b1", "a2"]);
  });

  test("a failure frees its slot", async () => {
    const scheduler = new FairScheduler({ slots: 1, slotsPerTenant: 1 });
    await expect(scheduler.run("a", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(scheduler.run("a", async () => "next")).resolves.toBe("next");
  });

  test("a tenant with too much waiting already is told to come back later", async () => {
    const scheduler = new FairScheduler({ slots: 1, slotsPerTenant: 1 });
    const blocker = gate([], "first");
    const first = scheduler.run("a", blocker.work);
    const waiting = Array.from({ length: 256 }, () => scheduler.run("a", async () => undefined));
    await expect(scheduler.run("a", async () => undefined)).rejects.toMatchObject({ kind: "TOO_MANY_REQUESTS", messageKey: "errors.busy" });
    blocker.finish();
    await Promise.all([first, ...waiting]);
  });
});

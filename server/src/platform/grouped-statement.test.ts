import { GroupedStatement, outputsByKey } from "./grouped-statement";

/** A statement that waits to be let go, recording the items of each run. */
function controlledStatement(fail: (item: string) => boolean = () => false) {
  const runs: string[][] = [];
  const pending: (() => void)[] = [];
  const statement = new GroupedStatement<string, string>(
    (items) =>
      new Promise((resolve, reject) => {
        runs.push(items);
        pending.push(() => (items.some(fail) ? reject(new Error(`failed: ${items.join(",")}`)) : resolve(items.map((item) => item.toUpperCase()))));
      }),
    { maxItems: 3, key: (item) => item.split(":")[0] },
  );
  const releaseNext = async () => {
    while (pending.length === 0) await new Promise((resolve) => setImmediate(resolve));
    pending.shift()!();
  };
  return { statement, runs, releaseNext };
}

test("an item that finds no statement under way goes at once, alone; those submitted meanwhile go together, each learning its own outcome", async () => {
  const { statement, runs, releaseNext } = controlledStatement();
  const first = statement.submit("a:1");
  expect(runs).toEqual([["a:1"]]);
  const later = ["b:1", "c:1"].map((item) => statement.submit(item));
  await releaseNext();
  await releaseNext();
  expect(await first).toBe("A:1");
  expect(await Promise.all(later)).toEqual(["B:1", "C:1"]);
  expect(runs).toEqual([["a:1"], ["b:1", "c:1"]]);
});

test("a statement takes at most maxItems, at most one of each key; the others keep their order for the next", async () => {
  const { statement, runs, releaseNext } = controlledStatement();
  const all = ["a:1", "b:1", "b:2", "c:1", "d:1", "e:1"].map((item) => statement.submit(item));
  for (let i = 0; i < 3; i++) await releaseNext();
  expect(await Promise.all(all)).toEqual(["A:1", "B:1", "B:2", "C:1", "D:1", "E:1"]);
  expect(runs).toEqual([["a:1"], ["b:1", "c:1", "d:1"], ["b:2", "e:1"]]);
});

test("when a statement of several fails, each item runs again alone, all at once: one item's failure is its own", async () => {
  const { statement, runs, releaseNext } = controlledStatement((item) => item === "bad:1");
  const first = statement.submit("a:1");
  const later = ["b:1", "bad:1", "c:1"].map((item) => statement.submit(item).catch((error: Error) => error.message));
  await releaseNext();
  await releaseNext();
  // The three run again before any of them answered (a database that is down fails them all within one statement's time).
  while (runs.length < 5) await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < 3; i++) await releaseNext();
  expect(await first).toBe("A:1");
  expect(await Promise.all(later)).toEqual(["B:1", "failed: bad:1", "C:1"]);
  expect(runs).toEqual([["a:1"], ["b:1", "bad:1", "c:1"], ["b:1"], ["bad:1"], ["c:1"]]);
});

test("a grouped read gives a key asked twice its own copy the second time, and null where nothing was found", () => {
  const row = { id: "a", tags: ["x"] };
  const [first, missing, second] = outputsByKey(["a", "b", "a"], new Map([["a", row]]), (value) => ({ ...value, tags: [...value.tags] }));
  expect(first).toBe(row);
  expect(missing).toBeNull();
  expect(second).toEqual(row);
  expect(second).not.toBe(row);
  expect(second!.tags).not.toBe(row.tags);
});

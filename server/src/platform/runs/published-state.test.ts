import { PublishedState } from "./published-state";

/**
 * A run's state, what was published and what the writes stored, and a write that can be held to stand for a slow
 * database; `owned` false stands for a run that was cancelled or taken over.
 */
function recorder(intervalMs: number, owned = true) {
  const state = { progress: 0 };
  const published: number[] = [];
  const written: number[] = [];
  let running = 0;
  let mostAtOnce = 0;
  let hold: Promise<void> | null = null;
  const writes = new PublishedState(
    () => published.push(state.progress),
    async () => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      const progress = state.progress;
      if (hold) await hold;
      written.push(progress);
      running -= 1;
      return owned;
    },
    intervalMs,
  );
  return {
    state,
    published,
    written,
    writes,
    mostAtOnce: () => mostAtOnce,
    /** Holds the writes that start from now until the returned function is called. */
    holdWrites(): () => void {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return () => {
        hold = null;
        release();
      };
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("every change is published at once; changes within an interval are written once, a moment later, as the run is then, and published again", async () => {
  const run = recorder(30);
  for (const progress of [0.01, 0.2, 0.3]) {
    run.state.progress = progress;
    await run.writes.changed();
  }
  expect(run.published).toEqual([0.01, 0.2, 0.3]);
  expect(run.written).toEqual([]);
  await until(() => run.written.length > 0);
  await pause(100);
  expect(run.written).toEqual([0.3]);
  expect(run.published).toEqual([0.01, 0.2, 0.3, 0.3]);
  await run.writes.stop();
});

test("a write the run no longer owns is not published again", async () => {
  const run = recorder(10, false);
  await pause(20);
  run.state.progress = 0.7;
  await run.writes.changed();
  expect(run.written).toEqual([0.7]);
  expect(run.published).toEqual([0.7]);
  await run.writes.stop();
});

test("a change an interval after the last write is written before changed() settles", async () => {
  const run = recorder(20);
  await pause(40);
  run.state.progress = 0.5;
  await run.writes.changed();
  expect(run.written).toEqual([0.5]);
  await run.writes.stop();
});

test("writes never overlap: a change while one is under way is written after it", async () => {
  const run = recorder(10);
  await pause(20);
  const release = run.holdWrites();
  run.state.progress = 0.1;
  const first = run.writes.changed();
  await pause(20);
  run.state.progress = 0.2;
  const second = run.writes.changed();
  release();
  await Promise.all([first, second]);
  expect(run.written).toEqual([0.1, 0.2]);
  expect(run.mostAtOnce()).toBe(1);
  await run.writes.stop();
});

test("stop drops a waiting write, waits for one under way, and later changes are not written", async () => {
  const waiting = recorder(30);
  waiting.state.progress = 0.4;
  await waiting.writes.changed();
  await waiting.writes.stop();
  await pause(100);
  expect(waiting.written).toEqual([]);

  const underWay = recorder(10);
  await pause(20);
  const release = underWay.holdWrites();
  underWay.state.progress = 0.6;
  void underWay.writes.changed();
  await until(() => underWay.mostAtOnce() === 1);
  let stopped = false;
  const stopping = underWay.writes.stop().then(() => (stopped = true));
  await pause(30);
  expect(stopped).toBe(false);
  release();
  await stopping;
  expect(underWay.written).toEqual([0.6]);
  underWay.state.progress = 0.9;
  await underWay.writes.changed();
  await pause(50);
  expect(underWay.written).toEqual([0.6]);
});

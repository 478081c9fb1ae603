import { englishText } from "../parse-log";
import { BuiltinEmbedding } from "../../models/builtin/embedding";
import { countTokens } from "../../models/tokens";
import { clusterVectors } from "./clustering";
import { buildRaptorSummaries, DEFAULT_RAPTOR_PROMPT, type RaptorSummary } from "./raptor";
import { enrichmentContext, ScriptedChat } from "./testing";

// The first run on a machine builds the built-in models' WordNet lexicon (~25 s); later runs load it.
jest.setTimeout(120_000);

const TOPICS = {
  astronomy: [
    "The Moon orbits the Earth every 27.3 days. Astronomers observe the Moon and the planets of the solar system with a telescope.",
    "Jupiter is the largest planet of the solar system. Astronomers count dozens of moons orbiting the planet through a telescope.",
    "A telescope gathers the light of stars and planets. Astronomers point the telescope at distant galaxies and the planets of the solar system.",
    "Mars is a planet of the solar system with a thin atmosphere. Astronomers watch the planet and its two moons through a telescope.",
    "The Sun is the star at the centre of the solar system. Every planet orbits the Sun, and astronomers study its light with a telescope.",
    "Saturn is a planet of the solar system with rings of ice. Astronomers first saw the rings of the planet through a telescope.",
  ],
  cooking: [
    "Knead the bread dough, let it rise, then bake the bread in a hot oven. The recipe needs flour, salt, water and yeast.",
    "Simmer the tomato sauce with garlic and onion, then serve the sauce over pasta. The recipe adds salt and olive oil to the sauce.",
    "Whisk eggs with sugar and butter, fold in flour, and bake the cake in a hot oven. The recipe serves eight.",
    "Season the chicken with salt and pepper, roast it in a hot oven, and baste it with butter. The recipe serves four.",
    "Simmer vegetables and bones in a pot to make a soup stock. The recipe adds salt, onion and garlic to the soup.",
    "Fry onion and garlic in olive oil, add rice and hot stock, and stir the risotto. The recipe finishes the rice with butter and salt.",
  ],
  football: [
    "The striker scored two goals in the final and the football team won the league. The coach praised the players after the match.",
    "The goalkeeper saved a penalty in the last minute of the match. The football team kept the score level and the fans cheered the players.",
    "The coach changed the formation of the football team at half time. The players won the match in the second half.",
    "Fans filled the stadium to watch the football match between two rival teams. The players scored three goals.",
    "The referee sent off a player after a foul, and the football team played the rest of the match with ten players.",
    "The football league season ends in May. The team with the most points after the last match wins the league, and its players lift the trophy.",
  ],
};

const texts = Object.values(TOPICS).flat();
const topicOf = (index: number) => Math.floor(index / 6);
let chunks: { text: string; vector: number[] }[];

beforeAll(async () => {
  const vectors = (await new BuiltinEmbedding().embed(texts)).vectors;
  chunks = texts.map((text, i) => ({ text, vector: vectors[i] }));
});

/** The input chunks under a summary, through the summaries it summarises. */
function leavesOf(summary: RaptorSummary, summaries: RaptorSummary[]): number[] {
  return summary.members.flatMap((m) => (m < chunks.length ? [m] : leavesOf(summaries[m - chunks.length], summaries)));
}

describe("RAPTOR summaries", () => {
  it("summarises clearly separate topics apart, then summarises the summaries up to a single root", async () => {
    const context = enrichmentContext();
    const { summaries, producedBy, notes } = await buildRaptorSummaries(chunks, { use_raptor: true }, context);
    const first = summaries.filter((s) => s.level === 1);
    expect(first.length).toBeGreaterThanOrEqual(3);
    for (const summary of first) {
      expect(summary.members.length).toBeGreaterThan(1);
      expect(new Set(summary.members.map(topicOf)).size).toBe(1);
    }
    // Every topic has a summary of its own.
    expect(new Set(first.map((s) => topicOf(s.members[0]))).size).toBe(3);
    const top = summaries[summaries.length - 1];
    expect(summaries.filter((s) => s.level === top.level)).toHaveLength(1);
    expect(new Set(leavesOf(top, summaries)).size).toBe(chunks.length);
    for (const s of summaries) {
      expect(s.vector).toHaveLength(1024);
      expect(countTokens(s.text)).toBeLessThanOrEqual(256);
    }
    expect(producedBy).toBe("cairn-extractive@Builtin");
    expect(notes).toEqual([]);
    expect(context.reports.some((r) => r.message?.messageKey === "parseLog.raptorLayer" && r.message.params.from === chunks.length && r.message.params.to === first.length)).toBe(true);
    expect(context.reports[context.reports.length - 1].fraction).toBe(1);
  });

  it("writes built-in summaries from the cluster's own sentences, within max_token tokens", async () => {
    const { summaries } = await buildRaptorSummaries(chunks, { max_token: 30 }, enrichmentContext());
    for (const s of summaries) {
      expect(countTokens(s.text)).toBeLessThanOrEqual(30);
      expect(s.text.length).toBeGreaterThan(0);
    }
    const football = summaries.find((s) => s.level === 1 && topicOf(s.members[0]) === 2)!;
    const sentences = texts.slice(12).join(" ");
    for (const sentence of football.text.split(/(?<=\.) /)) expect(sentences).toContain(sentence);
  });

  it("gives the same summaries for the same random_seed", async () => {
    const a = await buildRaptorSummaries(chunks, { random_seed: 7 }, enrichmentContext());
    const b = await buildRaptorSummaries(chunks, { random_seed: 7 }, enrichmentContext());
    expect(b.summaries).toEqual(a.summaries);
  });

  it("never makes more clusters in a level than max_cluster", async () => {
    for (const max_cluster of [1, 2]) {
      const { summaries } = await buildRaptorSummaries(chunks, { max_cluster }, enrichmentContext());
      expect(summaries.filter((s) => s.level === 1).length).toBeLessThanOrEqual(max_cluster);
    }
    const clusters = await clusterVectors(
      chunks.map((c) => c.vector),
      { maxClusters: 2, threshold: 0.1, seed: 0, signal: new AbortController().signal },
    );
    expect(clusters.length).toBeLessThanOrEqual(2);
  });

  it("lets chunks join a second cluster only when their probability of belonging to it passes the threshold", async () => {
    const bridge = "Astronomers bake bread in the oven of the observatory: the recipe needs flour and yeast, and they watch the planets through a telescope while it rises.";
    const withBridge = [...chunks, { text: bridge, vector: (await new BuiltinEmbedding().embed([bridge])).vectors[0] }];
    const memberships = async (threshold: number) => {
      const clusters = await clusterVectors(
        withBridge.map((c) => c.vector),
        { maxClusters: 64, threshold, seed: 0, signal: new AbortController().signal },
      );
      return clusters.flat().length;
    };
    // No chunk is ever left out: below the threshold everywhere, it joins its likeliest cluster.
    expect(await memberships(1)).toBe(withBridge.length);
    expect(await memberships(0.9)).toBe(withBridge.length);
    expect(await memberships(1e-6)).toBeGreaterThan(withBridge.length);
    // At 0 every chunk belongs everywhere: the clusters merge into one.
    expect(await memberships(0)).toBe(withBridge.length);
  });

  it("asks a language model with RAGFlow's prompt, max_token as its limit, and without its reasoning", async () => {
    const chat = new ScriptedChat((prompt) => `<think>Which topic is this?</think>\nSummary of ${(prompt.match(/\n/g) ?? []).length} lines.`);
    const context = enrichmentContext({ chat, chatId: "gpt-4o@OpenAI" });
    const { summaries, producedBy } = await buildRaptorSummaries(chunks, { max_token: 100 }, context);
    expect(producedBy).toBe("gpt-4o@OpenAI");
    expect(summaries.length).toBeGreaterThan(0);
    for (const s of summaries) expect(s.text).toMatch(/^Summary of \d+ lines\.$/);
    const first = chat.calls[0];
    expect(first.options).toMatchObject({ maxTokens: 100, temperature: 0.3 });
    const user = first.messages.find((m) => m.role === "user")!.content;
    expect(user.startsWith(DEFAULT_RAPTOR_PROMPT.split("{cluster_content}")[0])).toBe(true);
    expect(user.endsWith("\nThe above is the content you need to summarize.")).toBe(true);
  });

  it("leaves out a summary whose model call failed and says so, keeping the others", async () => {
    const chat = new ScriptedChat((prompt) => {
      if (prompt.includes("striker")) throw new Error("rate limited");
      return "A summary.";
    });
    const { summaries, notes } = await buildRaptorSummaries(chunks, {}, enrichmentContext({ chat, chatId: "gpt-4o@OpenAI" }));
    expect(summaries.some((s) => s.level === 1)).toBe(true);
    expect(summaries.every((s) => leavesOf(s, summaries).every((i) => topicOf(i) !== 2 || s.level > 1))).toBe(true);
    expect(notes.map(englishText).join("\n")).toMatch(/RAPTOR level 1: 1 of \d+ cluster summaries failed.*rate limited/);
  });

  it("stops when the task is cancelled", async () => {
    const context = enrichmentContext({ chatId: "gpt-4o@OpenAI", chat: new ScriptedChat(() => "A summary.") });
    const chat = new ScriptedChat(() => {
      context.controller.abort();
      return "A summary.";
    });
    context.chat = async () => ({ model: chat, id: "gpt-4o@OpenAI" });
    await expect(buildRaptorSummaries(chunks, {}, context)).rejects.toThrow(/abort/i);
    // Only the calls already under way when it was cancelled (at most one per concurrent slot).
    expect(chat.calls.length).toBeLessThanOrEqual(4);
  });

  it("makes nothing of fewer than two chunks", async () => {
    expect((await buildRaptorSummaries(chunks.slice(0, 1), {}, enrichmentContext())).summaries).toEqual([]);
    expect((await buildRaptorSummaries([], {}, enrichmentContext())).summaries).toEqual([]);
  });
});

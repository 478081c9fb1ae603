import type { SignedIn } from "../policies/principal";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { parsedKnowledgeBase } from "../testing/knowledge-bases";
import { mergeGraph } from "./knowledge-graph";

/**
 * The /force explorer's queries over the real server: only knowledge bases the user may read, capped views with
 * their totals, focus, search and the chunks that mention an entity. Graphs are written with mergeGraph (what the
 * GraphRAG task writes), so that a graph of hundreds of entities costs no extraction.
 */

let server: TestServer;
let owner: { token: string; principal: SignedIn };
let stranger: { token: string };
let harbourKb: string;
let harbourDocs: string[];
let bigKb: string;

const HANDBOOK = "Harbour handbook.\n\nAt dusk Anna Berg rings the bell of the Lighthouse twice.\n\nThe Harbour Office opens at eight; fees are paid there.";
const NOTES = "Garden notes.\n\nTomatoes want full sun.\n\nFrom the garden you can hear the bell of the Lighthouse across the bay.";

async function account(): Promise<{ token: string; principal: SignedIn }> {
  const { token } = await signUpAndIn(server);
  const principal = await server.services.principalFor(`Bearer ${token}`);
  if (principal.kind !== "session") throw new Error("not signed in");
  return { token, principal };
}

async function ask<T>(query: string, variables: Record<string, unknown>, token = owner.token): Promise<T> {
  const answer = await server.graphql<T>(query, variables, token);
  if (!answer.data) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}

async function errorCode(query: string, variables: Record<string, unknown>, token: string): Promise<string> {
  const answer = await server.graphql(query, variables, token);
  return answer.errors?.[0]?.extensions.code;
}

const VIEW = `query($ids: [ID!]!, $limit: Int, $focus: GraphEntityRef) {
  graphExplorer(knowledgeBaseIds: $ids, limit: $limit, focus: $focus) { entityCount relationCount nodes { id knowledgeBaseId name type degree } edges { source target weight description } }
}`;
type View = { graphExplorer: { entityCount: number; relationCount: number; nodes: { id: string; knowledgeBaseId: string; name: string; type: string; degree: number }[]; edges: { source: string; target: string; weight: number }[] } };

const SEARCH = `query($ids: [ID!]!, $text: String!) { searchGraphEntities(knowledgeBaseIds: $ids, text: $text) { id name degree } }`;
const ENTITY = `query($kb: ID!, $name: String!) {
  graphEntity(knowledgeBaseId: $kb, name: $name) {
    node { id name type degree } knowledgeBaseName description
    relations { other { id name } direction description weight }
    chunks { id documentId documentName content } documents { id name }
  }
}`;

beforeAll(async () => {
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache" });
  owner = await account();
  stranger = await account();
  const harbour = await parsedKnowledgeBase(server, owner.principal, { "handbook.txt": HANDBOOK, "garden.txt": NOTES }, { name: "Harbour town" });
  harbourKb = harbour.knowledgeBase.id;
  harbourDocs = harbour.documentIds;
  const db = server.platform.db.manager;
  await mergeGraph(db, harbourKb, harbourDocs[0], {
    entities: [
      { name: "Lighthouse", type: "place", description: "The tower at the harbour mouth." },
      { name: "Anna Berg", type: "person", description: "The keeper." },
      { name: "Harbour Office", type: "organization", description: "Where fees are paid." },
      { name: "100% Pier", type: "place", description: "A name with a LIKE wildcard in it." },
    ],
    relations: [
      { source: "Anna Berg", target: "Lighthouse", description: "Anna Berg keeps the Lighthouse.", keywords: ["keeper"], weight: 3 },
      { source: "Harbour Office", target: "Lighthouse", description: "The office runs the light.", keywords: [], weight: 1 },
    ],
  });
  await mergeGraph(db, harbourKb, harbourDocs[1], { entities: [{ name: "Lighthouse", type: "place", description: "Heard from the garden." }], relations: [] });

  // A graph far larger than a view: one hub related to 599 spokes, and a chain among the first spokes.
  const big = await server.services.knowledgeBases.create(owner.principal, { name: "Big graph" });
  bigKb = big.id;
  const spokes = Array.from({ length: 599 }, (_, i) => `Spoke ${String(i).padStart(3, "0")}`);
  await mergeGraph(db, bigKb, "no-document", {
    entities: [{ name: "Hub", type: "concept", description: "" }, ...spokes.map((name) => ({ name, type: "thing", description: "" }))],
    relations: [
      ...spokes.map((name) => ({ source: "Hub", target: name, description: "", keywords: [], weight: 1 })),
      ...spokes.slice(0, 50).map((name, i) => ({ source: name, target: spokes[i + 1], description: "", keywords: [], weight: 2 })),
    ],
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe("which knowledge graphs a user sees", () => {
  test("the owner lists their knowledge bases with the sizes of their graphs, largest first; a stranger lists none of them", async () => {
    const mine = await ask<{ graphKnowledgeBases: { id: string; name: string; entityCount: number; relationCount: number }[] }>(`{ graphKnowledgeBases { id name entityCount relationCount } }`, {});
    expect(mine.graphKnowledgeBases).toEqual([
      { id: bigKb, name: "Big graph", entityCount: 600, relationCount: 649 },
      { id: harbourKb, name: "Harbour town", entityCount: 4, relationCount: 2 },
    ]);
    const theirs = await ask<{ graphKnowledgeBases: unknown[] }>(`{ graphKnowledgeBases { id } }`, {}, stranger.token);
    expect(theirs.graphKnowledgeBases).toEqual([]);
  });

  test("a stranger's graph, its search and its entities are not found, and nothing of them leaks", async () => {
    expect(await errorCode(VIEW, { ids: [harbourKb] }, stranger.token)).toBe("NOT_FOUND");
    expect(await errorCode(VIEW, { ids: [harbourKb, bigKb] }, stranger.token)).toBe("NOT_FOUND");
    expect(await errorCode(SEARCH, { ids: [harbourKb], text: "Light" }, stranger.token)).toBe("NOT_FOUND");
    expect(await errorCode(ENTITY, { kb: harbourKb, name: "Lighthouse" }, stranger.token)).toBe("NOT_FOUND");
  });

  test("signed out, nothing is answered", async () => {
    const answer = await server.graphql(`{ graphKnowledgeBases { id } }`, {});
    expect(answer.errors?.[0]?.extensions.code).toBe("UNAUTHENTICATED");
  });
});

describe("a view of the graph", () => {
  test("a small graph is shown whole, its nodes sized by degree and its self-loop-free relations", async () => {
    const { graphExplorer: view } = await ask<View>(VIEW, { ids: [harbourKb] });
    expect(view).toMatchObject({ entityCount: 4, relationCount: 2 });
    expect(view.nodes.map((n) => [n.name, n.degree])).toEqual([
      ["Lighthouse", 2],
      ["Anna Berg", 1],
      ["Harbour Office", 1],
      ["100% Pier", 0],
    ]);
    expect(view.nodes[0]).toMatchObject({ id: `${harbourKb}:Lighthouse`, knowledgeBaseId: harbourKb, type: "place" });
    expect(view.edges).toEqual([
      { source: `${harbourKb}:Anna Berg`, target: `${harbourKb}:Lighthouse`, weight: 3, description: "Anna Berg keeps the Lighthouse." },
      { source: `${harbourKb}:Harbour Office`, target: `${harbourKb}:Lighthouse`, weight: 1, description: "The office runs the light." },
    ]);
  });

  test("a large graph is capped to its most connected entities and the strongest relations between them, with its totals", async () => {
    const { graphExplorer: view } = await ask<View>(VIEW, { ids: [bigKb], limit: 20 });
    expect(view).toMatchObject({ entityCount: 600, relationCount: 649 });
    expect(view.nodes).toHaveLength(20);
    expect(view.nodes[0]).toMatchObject({ name: "Hub", degree: 599 });
    // The chained spokes (degree 2–3) come before the others (degree 1).
    expect(view.nodes.slice(1).every((n) => n.degree >= 2)).toBe(true);
    const shown = new Set(view.nodes.map((n) => n.id));
    expect(view.edges.length).toBeLessThanOrEqual(60);
    expect(view.edges.every((e) => shown.has(e.source) && shown.has(e.target))).toBe(true);
    expect(view.edges[0].weight).toBe(2);
  });

  test("focusing an entity outside the view adds it and its neighbours", async () => {
    const { graphExplorer: view } = await ask<View>(VIEW, { ids: [bigKb], limit: 5, focus: { knowledgeBaseId: bigKb, name: "Spoke 400" } });
    const names = view.nodes.map((n) => n.name);
    expect(names).toHaveLength(6);
    expect(names).toContain("Spoke 400");
    expect(view.edges).toContainEqual(expect.objectContaining({ source: `${bigKb}:Hub`, target: `${bigKb}:Spoke 400` }));
  });

  test("two knowledge bases are shown side by side, their entities kept apart", async () => {
    const { graphExplorer: view } = await ask<View>(VIEW, { ids: [harbourKb, bigKb], limit: 500 });
    expect(view.entityCount).toBe(604);
    expect(view.nodes).toHaveLength(500);
    expect(new Set(view.nodes.map((n) => n.knowledgeBaseId))).toEqual(new Set([harbourKb, bigKb]));
    expect(view.edges.every((e) => e.source.split(":")[0] === e.target.split(":")[0])).toBe(true);
  });

  test("a view past the caps is refused with the reason", async () => {
    const tooMany = await server.graphql(VIEW, { ids: [bigKb], limit: 501 }, owner.token);
    expect(tooMany.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "errors.force.limit" });
    const none = await server.graphql(VIEW, { ids: [] }, owner.token);
    expect(none.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "errors.force.noKnowledgeBase" });
    const eleven = await server.graphql(VIEW, { ids: Array.from({ length: 11 }, (_, i) => `kb${i}`) }, owner.token);
    expect(eleven.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "errors.force.tooManyKnowledgeBases" });
  });
});

describe("searching and opening an entity", () => {
  test("search finds names containing the text, exact names first, then prefixes, then the most connected; wildcards match themselves", async () => {
    const { searchGraphEntities: found } = await ask<{ searchGraphEntities: { name: string }[] }>(SEARCH, { ids: [harbourKb, bigKb], text: "h" });
    expect(found.map((n) => n.name).slice(0, 3)).toEqual(["Hub", "Harbour Office", "Lighthouse"]);
    const { searchGraphEntities: exact } = await ask<{ searchGraphEntities: { name: string }[] }>(SEARCH, { ids: [bigKb], text: "spoke 001" });
    expect(exact.map((n) => n.name)).toEqual(["Spoke 001"]);
    const { searchGraphEntities: literal } = await ask<{ searchGraphEntities: { name: string }[] }>(SEARCH, { ids: [harbourKb], text: "0%" });
    expect(literal.map((n) => n.name)).toEqual(["100% Pier"]);
    const { searchGraphEntities: underscore } = await ask<{ searchGraphEntities: { name: string }[] }>(SEARCH, { ids: [harbourKb], text: "_" });
    expect(underscore).toEqual([]);
  });

  test("an entity comes with its description, its relations and the chunks of its documents that name it", async () => {
    const { graphEntity: entity } = await ask<{
      graphEntity: { node: { name: string; degree: number }; knowledgeBaseName: string; description: string; relations: { other: { name: string }; direction: string; weight: number }[]; chunks: { documentId: string; documentName: string; content: string }[]; documents: { name: string }[] };
    }>(ENTITY, { kb: harbourKb, name: "Lighthouse" });
    expect(entity).toMatchObject({ node: { name: "Lighthouse", degree: 2 }, knowledgeBaseName: "Harbour town", description: "The tower at the harbour mouth.\nHeard from the garden." });
    expect(entity.relations.map((r) => [r.other.name, r.direction, r.weight])).toEqual([
      ["Anna Berg", "in", 3],
      ["Harbour Office", "in", 1],
    ]);
    expect(entity.documents.map((d) => d.name)).toEqual(["garden.txt", "handbook.txt"]);
    expect(entity.chunks.length).toBeGreaterThanOrEqual(2);
    expect(entity.chunks.every((c) => c.content.includes("Lighthouse"))).toBe(true);
    expect(new Set(entity.chunks.map((c) => c.documentName))).toEqual(new Set(["garden.txt", "handbook.txt"]));

    // Anna Berg was found in the handbook only: the garden's chunks are not hers, though none of them names her either.
    const { graphEntity: anna } = await ask<{ graphEntity: { chunks: { documentName: string; content: string }[] } }>(ENTITY, { kb: harbourKb, name: "Anna Berg" });
    expect(anna.chunks.map((c) => c.documentName)).toEqual(["handbook.txt"]);
    expect(anna.chunks[0].content).toContain("Anna Berg");
  });

  test("an unknown entity is not found", async () => {
    expect(await errorCode(ENTITY, { kb: harbourKb, name: "Nobody" }, owner.token)).toBe("NOT_FOUND");
  });
});

describe("what is in the recycle bin", () => {
  afterEach(async () => {
    await server.platform.db.query(`UPDATE document SET binned_in = NULL WHERE knowledge_base_id = $1`, [harbourKb]);
    await server.platform.db.query(`UPDATE knowledge_base SET binned_in = NULL WHERE id = $1`, [bigKb]);
  });

  test("a binned document's chunks no longer mention the entity, and a binned knowledge base is not listed", async () => {
    // As the recycle bin marks rows (binned_in: the bin entry holding them).
    await server.platform.db.query(`UPDATE document SET binned_in = 'bin-entry-1' WHERE id = $1`, [harbourDocs[1]]);
    const { graphEntity } = await ask<{ graphEntity: { chunks: { documentName: string }[]; documents: { name: string }[] } }>(ENTITY, { kb: harbourKb, name: "Lighthouse" });
    expect(graphEntity.documents.map((d) => d.name)).toEqual(["handbook.txt"]);
    expect(new Set(graphEntity.chunks.map((c) => c.documentName))).toEqual(new Set(["handbook.txt"]));

    await server.platform.db.query(`UPDATE knowledge_base SET binned_in = 'bin-entry-2' WHERE id = $1`, [bigKb]);
    const { graphKnowledgeBases } = await ask<{ graphKnowledgeBases: { id: string }[] }>(`{ graphKnowledgeBases { id } }`, {});
    expect(graphKnowledgeBases.map((kb) => kb.id)).toEqual([harbourKb]);
  });
});

import type { Repository } from "typeorm";
import type { Platform } from "../platform";
import { FieldChecks, NotFound } from "../platform/errors";
import { escapeLike } from "../platform/sql";
import { scope, scopeSql } from "../policies";
import type { SignedIn } from "../policies/principal";
import { KnowledgeBase } from "./knowledge-base.entity";
import type { KnowledgeBaseService } from "./knowledge-base.service";

/**
 * The force-graph explorer (/force) over the knowledge graphs of the knowledge bases a principal may read.
 *
 * Several knowledge bases are shown side by side, never merged: an entity is the pair (knowledge base, name), so
 * two bases' "Apple" stay two nodes with their own descriptions, relations and chunks — each base's graph was
 * extracted with its own entity types, and a name shared by chance must not join them.
 *
 * A graph can hold thousands of entities; the browser draws a few hundred smoothly, so a view is capped: the most
 * connected entities (by degree, then relation weight) and the strongest relations between them, with the totals
 * so that the page says what it leaves out. Focusing an entity adds it and its neighbours to the view.
 */

/** At most this many knowledge bases in one view. */
export const MAX_VIEW_KNOWLEDGE_BASES = 10;
export const DEFAULT_VIEW_ENTITIES = 150;
export const MAX_VIEW_ENTITIES = 500;
/** Relations per shown entity: enough for the structure, few enough for the drawing to stay readable. */
const RELATIONS_PER_ENTITY = 3;
/** Neighbours of a focused entity added to the view, strongest first. */
const FOCUS_NEIGHBOURS = 40;
const MAX_SEARCH_RESULTS = 50;
const MAX_ENTITY_RELATIONS = 100;
const MAX_MENTIONING_CHUNKS = 20;
/** A relation's description as a tooltip shows it; the entity panel shows it whole. */
const EDGE_DESCRIPTION_CHARS = 300;

/** A knowledge base the principal may read, with the size of its graph (0 entities: none built yet). */
export interface GraphKnowledgeBaseSummary {
  id: string;
  name: string;
  avatar: string | null;
  chunkMethod: string;
  entityCount: number;
  relationCount: number;
}

export interface ExplorerNode {
  /** `<knowledge base id>:<entity name>`: unique across the knowledge bases of a view. */
  id: string;
  knowledgeBaseId: string;
  name: string;
  type: string;
  /** Relations that touch it (self-loops left out): the page sizes nodes by it. */
  degree: number;
}

export interface ExplorerEdge {
  source: string;
  target: string;
  weight: number;
  description: string;
}

export interface ExplorerGraph {
  nodes: ExplorerNode[];
  edges: ExplorerEdge[];
  /** Totals of the chosen knowledge bases' graphs, so that the page says how much of them it shows. */
  entityCount: number;
  relationCount: number;
}

export interface EntityRelation {
  /** The entity at the other end. */
  other: ExplorerNode;
  /** "out" when this entity is the relation's source. */
  direction: "out" | "in";
  description: string;
  keywords: string[];
  weight: number;
}

export interface MentioningChunk {
  id: string;
  documentId: string;
  documentName: string;
  content: string;
  page: number | null;
}

export interface EntityDetail {
  node: ExplorerNode;
  knowledgeBaseName: string;
  description: string;
  relations: EntityRelation[];
  /** Chunks of the documents it was found in whose text names it, in document order; at most MAX_MENTIONING_CHUNKS. */
  chunks: MentioningChunk[];
  /** The documents it was found in (live ones: not in the recycle bin), for when no chunk names it word for word. */
  documents: { id: string; name: string }[];
}

export const nodeId = (knowledgeBaseId: string, name: string) => `${knowledgeBaseId}:${name}`;

interface EntityRow {
  knowledge_base_id: string;
  name: string;
  type: string;
  degree: string | number;
}

const nodeOf = (row: EntityRow): ExplorerNode => ({ id: nodeId(row.knowledge_base_id, row.name), knowledgeBaseId: row.knowledge_base_id, name: row.name, type: row.type, degree: Number(row.degree) });

/** Each entity of the knowledge bases $1 with its degree, as a CTE body joined by the queries below. */
const ENTITY_DEGREES = `
  SELECT e.knowledge_base_id, e.name, e.type, coalesce(d.degree, 0) AS degree, coalesce(d.strength, 0) AS strength
  FROM graph_entity e
  LEFT JOIN (
    SELECT knowledge_base_id, name, count(*) AS degree, sum(weight) AS strength FROM (
      SELECT knowledge_base_id, source AS name, weight FROM graph_relation WHERE knowledge_base_id = ANY($1) AND source <> target
      UNION ALL
      SELECT knowledge_base_id, target AS name, weight FROM graph_relation WHERE knowledge_base_id = ANY($1) AND source <> target
    ) ends GROUP BY knowledge_base_id, name
  ) d ON d.knowledge_base_id = e.knowledge_base_id AND d.name = e.name
  WHERE e.knowledge_base_id = ANY($1)`;

export class GraphExplorerService {
  private readonly repository: Repository<KnowledgeBase>;

  constructor(
    private readonly platform: Platform,
    private readonly knowledgeBases: KnowledgeBaseService,
  ) {
    this.repository = platform.db.getRepository(KnowledgeBase);
  }

  /** Every knowledge base the principal may read, those with the largest graphs first. */
  async knowledgeBasesWithGraphs(principal: SignedIn): Promise<GraphKnowledgeBaseSummary[]> {
    const { sql, params } = scopeSql(scope(principal, "read", "knowledgeBase"), "kb");
    const rows: { id: string; name: string; avatar: string | null; chunk_method: string; entity_count: string; relation_count: string }[] = await this.repository
      .createQueryBuilder("kb")
      .select(["kb.id AS id", "kb.name AS name", "kb.avatar AS avatar", "kb.chunk_method AS chunk_method"])
      .addSelect("(SELECT count(*) FROM graph_entity ge WHERE ge.knowledge_base_id = kb.id)", "entity_count")
      .addSelect("(SELECT count(*) FROM graph_relation gr WHERE gr.knowledge_base_id = kb.id)", "relation_count")
      .where(sql, params)
      // Live knowledge bases only: a binned one (the recycle bin's contract) is nobody's to explore.
      .andWhere("kb.binned_in IS NULL")
      .orderBy("entity_count", "DESC")
      .addOrderBy("kb.name", "ASC")
      .limit(200)
      .getRawMany();
    return rows.map((r) => ({ id: r.id, name: r.name, avatar: r.avatar, chunkMethod: r.chunk_method, entityCount: Number(r.entity_count), relationCount: Number(r.relation_count) }));
  }

  /** The knowledge bases of a view, each one the principal may read (NOT_FOUND otherwise), without repeats. */
  private async readable(principal: SignedIn, knowledgeBaseIds: string[]): Promise<KnowledgeBase[]> {
    const ids = [...new Set(knowledgeBaseIds)];
    new FieldChecks()
      .check(ids.length > 0, "knowledgeBaseIds", "errors.force.noKnowledgeBase")
      .check(ids.length <= MAX_VIEW_KNOWLEDGE_BASES, "knowledgeBaseIds", "errors.force.tooManyKnowledgeBases", { max: MAX_VIEW_KNOWLEDGE_BASES })
      .throwIfAny();
    return Promise.all(ids.map((id) => this.knowledgeBases.accessible(principal, id)));
  }

  /**
   * The graph of the chosen knowledge bases: their `limit` most connected entities (and, with `focus`, that entity
   * and its strongest neighbours), and the strongest relations between the shown entities.
   */
  async graph(principal: SignedIn, knowledgeBaseIds: string[], options: { limit?: number; focus?: { knowledgeBaseId: string; name: string } } = {}): Promise<ExplorerGraph> {
    const limit = options.limit ?? DEFAULT_VIEW_ENTITIES;
    new FieldChecks().check(Number.isInteger(limit) && limit >= 1 && limit <= MAX_VIEW_ENTITIES, "limit", "errors.force.limit", { max: MAX_VIEW_ENTITIES }).throwIfAny();
    const ids = (await this.readable(principal, knowledgeBaseIds)).map((kb) => kb.id);
    const db = this.platform.db;
    const [totals]: { entities: string; relations: string }[] = await db.query(
      `SELECT (SELECT count(*) FROM graph_entity WHERE knowledge_base_id = ANY($1)) AS entities,
              (SELECT count(*) FROM graph_relation WHERE knowledge_base_id = ANY($1)) AS relations`,
      [ids],
    );
    const top: EntityRow[] = await db.query(`WITH ranked AS (${ENTITY_DEGREES}) SELECT * FROM ranked ORDER BY degree DESC, strength DESC, name LIMIT $2`, [ids, limit]);
    const nodes = new Map(top.map((row) => [nodeId(row.knowledge_base_id, row.name), nodeOf(row)]));
    const focus = options.focus;
    if (focus && ids.includes(focus.knowledgeBaseId)) {
      const around: EntityRow[] = await db.query(
        `WITH ranked AS (${ENTITY_DEGREES}),
         neighbours AS (
           SELECT CASE WHEN source = $3 THEN target ELSE source END AS name, max(weight) AS weight
           FROM graph_relation WHERE knowledge_base_id = $2 AND (source = $3 OR target = $3) AND source <> target
           GROUP BY 1 ORDER BY 2 DESC LIMIT ${FOCUS_NEIGHBOURS}
         )
         SELECT r.* FROM ranked r WHERE r.knowledge_base_id = $2 AND (r.name = $3 OR r.name IN (SELECT name FROM neighbours))`,
        [ids, focus.knowledgeBaseId, focus.name],
      );
      for (const row of around) nodes.set(nodeId(row.knowledge_base_id, row.name), nodeOf(row));
    }
    const shown = [...nodes.values()];
    const edges: { knowledge_base_id: string; source: string; target: string; weight: number; description: string }[] =
      shown.length === 0
        ? []
        : await db.query(
            `WITH shown AS (SELECT * FROM unnest($2::text[], $3::text[]) AS s(knowledge_base_id, name))
             SELECT r.knowledge_base_id, r.source, r.target, r.weight, left(r.description, ${EDGE_DESCRIPTION_CHARS}) AS description
             FROM graph_relation r
             JOIN shown a ON a.knowledge_base_id = r.knowledge_base_id AND a.name = r.source
             JOIN shown b ON b.knowledge_base_id = r.knowledge_base_id AND b.name = r.target
             WHERE r.knowledge_base_id = ANY($1) AND r.source <> r.target
             ORDER BY r.weight DESC, r.source, r.target LIMIT $4`,
            [ids, shown.map((n) => n.knowledgeBaseId), shown.map((n) => n.name), shown.length * RELATIONS_PER_ENTITY],
          );
    return {
      nodes: shown,
      edges: edges.map((e) => ({ source: nodeId(e.knowledge_base_id, e.source), target: nodeId(e.knowledge_base_id, e.target), weight: Number(e.weight), description: e.description })),
      entityCount: Number(totals.entities),
      relationCount: Number(totals.relations),
    };
  }

  /** Entities of the chosen knowledge bases whose name contains `text` (any case): exact names, then prefixes, then the most connected. */
  async searchEntities(principal: SignedIn, knowledgeBaseIds: string[], text: string, limit = 20): Promise<ExplorerNode[]> {
    const ids = (await this.readable(principal, knowledgeBaseIds)).map((kb) => kb.id);
    const query = text.trim();
    if (!query) return [];
    const rows: EntityRow[] = await this.platform.db.query(
      `WITH ranked AS (${ENTITY_DEGREES})
       SELECT * FROM ranked WHERE name ILIKE $2
       ORDER BY lower(name) = lower($3) DESC, name ILIKE $4 DESC, degree DESC, name LIMIT $5`,
      [ids, `%${escapeLike(query)}%`, query, `${escapeLike(query)}%`, Math.min(Math.max(1, limit), MAX_SEARCH_RESULTS)],
    );
    return rows.map(nodeOf);
  }

  /** One entity: its description, its relations (strongest first) and the chunks that name it. */
  async entity(principal: SignedIn, knowledgeBaseId: string, name: string): Promise<EntityDetail> {
    const [kb] = await this.readable(principal, [knowledgeBaseId]);
    const db = this.platform.db;
    const [row]: (EntityRow & { description: string; document_ids: string[] })[] = await db.query(
      `WITH ranked AS (${ENTITY_DEGREES})
       SELECT r.*, e.description, e.document_ids FROM ranked r JOIN graph_entity e ON e.knowledge_base_id = r.knowledge_base_id AND e.name = r.name WHERE r.name = $2`,
      [[kb.id], name],
    );
    if (!row) throw NotFound("errors.force.entityNotFound", { name });
    const relations: (EntityRow & { direction: "out" | "in"; description: string; keywords: string[]; weight: number })[] = await db.query(
      `WITH ranked AS (${ENTITY_DEGREES})
       SELECT o.*, CASE WHEN r.source = $2 THEN 'out' ELSE 'in' END AS direction, r.description, r.keywords, r.weight
       FROM graph_relation r
       JOIN ranked o ON o.knowledge_base_id = r.knowledge_base_id AND o.name = CASE WHEN r.source = $2 THEN r.target ELSE r.source END
       WHERE r.knowledge_base_id = ANY($1) AND (r.source = $2 OR r.target = $2) AND r.source <> r.target
       ORDER BY r.weight DESC, o.name LIMIT ${MAX_ENTITY_RELATIONS}`,
      [[kb.id], name],
    );
    const documents: { id: string; name: string }[] = await db.query(
      `SELECT d.id, d.name FROM document d WHERE d.knowledge_base_id = $1 AND d.binned_in IS NULL AND d.id IN (SELECT jsonb_array_elements_text($2::jsonb)) ORDER BY d.name`,
      [kb.id, JSON.stringify(row.document_ids)],
    );
    const chunks: { id: string; document_id: string; document_name: string; content: string; page: number | null }[] =
      documents.length === 0
        ? []
        : await db.query(
            `SELECT c.id, c.document_id, d.name AS document_name, c.content, c.page
             FROM chunk c JOIN document d ON d.id = c.document_id
             WHERE c.knowledge_base_id = $1 AND c.document_id = ANY($2) AND c.kind <> 'raptor' AND c.content ILIKE $3
             ORDER BY d.name, c.ordinal LIMIT ${MAX_MENTIONING_CHUNKS}`,
            [kb.id, documents.map((d) => d.id), `%${escapeLike(name)}%`],
          );
    return {
      node: nodeOf(row),
      knowledgeBaseName: kb.name,
      description: row.description,
      relations: relations.map((r) => ({ other: nodeOf(r), direction: r.direction, description: r.description, keywords: r.keywords, weight: Number(r.weight) })),
      chunks: chunks.map((c) => ({ id: c.id, documentId: c.document_id, documentName: c.document_name, content: c.content, page: c.page })),
      documents,
    };
  }
}

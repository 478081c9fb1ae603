import type { MigrationInterface, QueryRunner } from "typeorm";

export class Knowledge1763900000000 implements MigrationInterface {
  name = "Knowledge1763900000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE knowledge_base (
      id varchar(32) PRIMARY KEY,
      tenant_id varchar(32) NOT NULL REFERENCES tenant(id) ON DELETE CASCADE,
      created_by varchar(32) NOT NULL,
      name varchar(128) NOT NULL,
      avatar text,
      description text,
      language varchar(32) NOT NULL DEFAULT 'English',
      permission varchar(8) NOT NULL DEFAULT 'me',
      embedding_model varchar(330) NOT NULL,
      rerank_model varchar(330),
      chunk_method varchar(32) NOT NULL DEFAULT 'naive',
      parser_config jsonb NOT NULL DEFAULT '{}',
      pagerank integer NOT NULL DEFAULT 0,
      similarity_threshold real NOT NULL DEFAULT 0.2,
      vector_similarity_weight real NOT NULL DEFAULT 0.3,
      top_k integer NOT NULL DEFAULT 1024,
      document_count integer NOT NULL DEFAULT 0,
      chunk_count integer NOT NULL DEFAULT 0,
      token_count bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX knowledge_base_name_key ON knowledge_base (tenant_id, lower(name))`);

    await q.query(`CREATE TABLE document (
      id varchar(32) PRIMARY KEY,
      knowledge_base_id varchar(32) NOT NULL REFERENCES knowledge_base(id) ON DELETE CASCADE,
      tenant_id varchar(32) NOT NULL,
      created_by varchar(32) NOT NULL,
      name varchar(255) NOT NULL,
      type varchar(16) NOT NULL,
      suffix varchar(32) NOT NULL,
      source_type varchar(16) NOT NULL DEFAULT 'local',
      source_url text,
      storage_key varchar(200) NOT NULL,
      size bigint NOT NULL DEFAULT 0,
      chunk_method varchar(32) NOT NULL,
      parser_config jsonb NOT NULL DEFAULT '{}',
      enabled boolean NOT NULL DEFAULT true,
      run varchar(2) NOT NULL DEFAULT '0',
      run_id varchar(32),
      progress real NOT NULL DEFAULT 0,
      progress_msg text NOT NULL DEFAULT '',
      process_begin_at timestamptz,
      process_duration real NOT NULL DEFAULT 0,
      chunk_count integer NOT NULL DEFAULT 0,
      token_count bigint NOT NULL DEFAULT 0,
      page_count integer,
      meta_fields jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX document_kb_idx ON document (knowledge_base_id, created_at)`);
    await q.query(`CREATE UNIQUE INDEX document_name_key ON document (knowledge_base_id, name)`);
    await q.query(`CREATE INDEX document_running_idx ON document (run) WHERE run = '1'`);

    // A chunk's vector has the dimension of its knowledge base's embedding model, so the column is an
    // untyped `vector`; each dimension gets its own partial HNSW index once it has many chunks (knowledge/vector-index.ts).
    // `terms` maps the analysed terms (stems, jieba words) to their field-weighted frequencies
    // (knowledge/search-terms.ts); `term_count` is the length BM25 normalises by.
    await q.query(`CREATE TABLE chunk (
      id varchar(32) PRIMARY KEY,
      knowledge_base_id varchar(32) NOT NULL REFERENCES knowledge_base(id) ON DELETE CASCADE,
      document_id varchar(32) NOT NULL REFERENCES document(id) ON DELETE CASCADE,
      tenant_id varchar(32) NOT NULL,
      ordinal integer NOT NULL DEFAULT 0,
      kind varchar(16) NOT NULL DEFAULT 'text',
      content text NOT NULL,
      title text NOT NULL DEFAULT '',
      keywords jsonb NOT NULL DEFAULT '[]',
      questions jsonb NOT NULL DEFAULT '[]',
      fields jsonb,
      positions jsonb NOT NULL DEFAULT '[]',
      page integer,
      top real,
      image_key varchar(200),
      available boolean NOT NULL DEFAULT true,
      token_count integer NOT NULL DEFAULT 0,
      produced_by jsonb NOT NULL DEFAULT '{}',
      dimension integer NOT NULL,
      embedding vector NOT NULL,
      terms jsonb NOT NULL,
      term_count integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX chunk_document_idx ON chunk (document_id, page, top, created_at)`);
    await q.query(`CREATE INDEX chunk_kb_idx ON chunk (knowledge_base_id)`);
    await q.query(`CREATE INDEX chunk_terms_idx ON chunk USING gin (terms)`);

    // The knowledge graph of a knowledge base (knowledge_graph chunk method), merged across its documents.
    await q.query(`CREATE TABLE graph_entity (
      knowledge_base_id varchar(32) NOT NULL REFERENCES knowledge_base(id) ON DELETE CASCADE,
      name varchar(500) NOT NULL,
      type varchar(100) NOT NULL,
      description text NOT NULL DEFAULT '',
      document_ids jsonb NOT NULL DEFAULT '[]',
      PRIMARY KEY (knowledge_base_id, name)
    )`);
    await q.query(`CREATE TABLE graph_relation (
      knowledge_base_id varchar(32) NOT NULL REFERENCES knowledge_base(id) ON DELETE CASCADE,
      source varchar(500) NOT NULL,
      target varchar(500) NOT NULL,
      description text NOT NULL DEFAULT '',
      keywords jsonb NOT NULL DEFAULT '[]',
      weight real NOT NULL DEFAULT 1,
      document_ids jsonb NOT NULL DEFAULT '[]',
      PRIMARY KEY (knowledge_base_id, source, target)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE graph_relation`);
    await q.query(`DROP TABLE graph_entity`);
    await q.query(`DROP TABLE chunk`);
    await q.query(`DROP TABLE document`);
    await q.query(`DROP TABLE knowledge_base`);
  }
}

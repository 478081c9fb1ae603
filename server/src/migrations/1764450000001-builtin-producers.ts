import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Keywords, questions and RAPTOR summaries of the built-in model used to record an English description of its method
 * beside the model id ("cairn-extractive@Builtin (keyword extraction without a language model)"); they now record the
 * id only and the chunk page says what the built-in model does in the reader's language. Older chunks get the id only too.
 */
export class BuiltinProducers1764450000001 implements MigrationInterface {
  name = "BuiltinProducers1764450000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE chunk SET produced_by = (
        SELECT jsonb_object_agg(key, CASE WHEN value #>> '{}' LIKE '%@Builtin (%' THEN to_jsonb(split_part(value #>> '{}', ' (', 1)) ELSE value END)
          FROM jsonb_each(produced_by))
      WHERE produced_by::text LIKE '%@Builtin (%'`);
  }

  async down(): Promise<void> {
    // The English descriptions are not restored: the id says which model it was.
  }
}

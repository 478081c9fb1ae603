import type { FlowTemplate } from "./flow-template";
import { generateParams, retrievalParams, templateDsl, type TemplateComponent } from "./template-graph";

/**
 * RAGFlow's "Text To SQL": the question is looked up in three knowledge bases — the database's DDL, examples of
 * questions with their SQL, and a description of the database — and a model writes the SQL from what they hold.
 * The DB Assistant template starts the same way and runs the SQL too.
 */

/** The three lookups and the SQL writer, from `column` on; shared with the DB Assistant. */
export function sqlWriter(column: number): TemplateComponent[] {
  return [
    { id: "Retrieval:DDL", name: "DDL", at: [column, 0], params: retrievalParams({ similarity_threshold: 0.02, keywords_similarity_weight: 0.1, top_n: 18, empty_response: "Nothing found in the DDL." }) },
    { id: "Retrieval:Examples", name: "Question to SQL examples", at: [column, 1], params: retrievalParams({ empty_response: "Nothing found in the examples." }) },
    { id: "Retrieval:Description", name: "Database description", at: [column, 2], params: retrievalParams({ empty_response: "Nothing found in the database description." }) },
    {
      id: "Generate:WriteSQL",
      name: "Write SQL",
      at: [column + 1, 1],
      params: generateParams(
        [
          "The user asks a question and you write the SQL that answers it. Answer with SQL code only, with no explanation.",
          "",
          "These DDL statements show the tables that may be available:",
          "{ddl_input}",
          "",
          "These questions and their SQL show how past questions were answered:",
          "{sql_input}",
          "",
          "This documentation describes the database, its tables and records:",
          "{db_input}",
          "",
          "Answer with SQL code only. No explanations — just the code.",
        ].join("\n"),
        { window: 12, temperature: 0.1, parameters: { ddl_input: "Retrieval:DDL", sql_input: "Retrieval:Examples", db_input: "Retrieval:Description" } },
      ),
    },
  ];
}

export const SQL_SETUP = "Prepare three knowledge bases and choose them here: \"DDL\" (your database's CREATE TABLE statements), \"Question to SQL examples\" (questions with the SQL that answers them, e.g. Q&A chunks) and \"Database description\" (what the tables and their records mean).";

export const textToSql: FlowTemplate = {
  id: "text-to-sql",
  title: "flow.templates.text-to-sql.title",
  description: "flow.templates.text-to-sql.description",
  needs: ["knowledgeBase"],
  dsl: templateDsl(
    [
      { id: "begin", name: "Begin", at: [0, 1], params: { prologue: "Hi! Ask me a question about your data, and I'll write the SQL that answers it." } },
      { id: "Answer:Interact", name: "Interact", at: [1, 1] },
      ...sqlWriter(2),
    ],
    [
      ["begin", "Answer:Interact"],
      ["Answer:Interact", "Retrieval:DDL"],
      ["Answer:Interact", "Retrieval:Examples"],
      ["Answer:Interact", "Retrieval:Description"],
      ["Retrieval:DDL", "Generate:WriteSQL"],
      ["Retrieval:Examples", "Generate:WriteSQL"],
      ["Retrieval:Description", "Generate:WriteSQL"],
      ["Generate:WriteSQL", "Answer:Interact"],
    ],
    [{ name: "Setup", at: [0, 2.3], text: SQL_SETUP }],
  ),
};

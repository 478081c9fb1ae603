import type { FlowTemplate } from "./flow-template";
import { generateParams, templateDsl } from "./template-graph";
import { SQL_SETUP, sqlWriter } from "./text-to-sql";

/**
 * RAGFlow's "DB Assistant": Text To SQL, then the SQL runs on the database. When the database reports an error,
 * a model repairs the statement and it runs again (ExeSQL's own loop limit, 3, ends a repair that never works);
 * the result is then explained to the user.
 */

export const dbAssistant: FlowTemplate = {
  id: "db-assistant",
  title: "flow.templates.db-assistant.title",
  description: "flow.templates.db-assistant.description",
  needs: ["knowledgeBase", "database"],
  dsl: templateDsl(
    [
      { id: "begin", name: "Begin", at: [0, 1], params: { prologue: "Hi! Ask me a question about your database: I'll write the SQL, run it and tell you what it found." } },
      { id: "Answer:Interact", name: "Interact", at: [1, 1] },
      ...sqlWriter(2),
      { id: "ExeSQL:Run", name: "Run SQL", at: [4, 1], params: { db_type: "mysql", database: "your_database", username: "your_read_only_user", host: "your-database-host", port: 3306, password: "", loop: 3, top_n: 30 } },
      {
        id: "Switch:Failed",
        name: "SQL failed?",
        at: [5, 1],
        params: {
          conditions: [
            {
              logical_operator: "or",
              items: [
                { cpn_id: "ExeSQL:Run", operator: "contains", value: "**Error**" },
                { cpn_id: "ExeSQL:Run", operator: "contains", value: "Error" },
              ],
              to: "Generate:RepairSQL",
            },
          ],
          end_cpn_id: "Generate:Explain",
        },
      },
      {
        id: "Generate:RepairSQL",
        name: "Repair SQL",
        at: [5, 2.3],
        params: generateParams(
          "You repair SQL statements. Correct the statement below so that it runs, using the error the database reported.\n\nThe error report and the statement:\n{exesql_input}\n\nAnswer with the corrected SQL statement only: no explanation, just the code.",
          { window: 0, parameters: { exesql_input: "ExeSQL:Run" } },
        ),
      },
      {
        id: "Generate:Explain",
        name: "Explain the result",
        at: [6, 1],
        params: generateParams(
          "Answer the user's question from the result of the SQL query below. Show the result table in markdown, then say in a sentence or two what it means. When the result is empty, say that nothing matched.\n\nThe query result:\n{result}",
          { window: 4, parameters: { result: "ExeSQL:Run" } },
        ),
      },
    ],
    [
      ["begin", "Answer:Interact"],
      ["Answer:Interact", "Retrieval:DDL"],
      ["Answer:Interact", "Retrieval:Examples"],
      ["Answer:Interact", "Retrieval:Description"],
      ["Retrieval:DDL", "Generate:WriteSQL"],
      ["Retrieval:Examples", "Generate:WriteSQL"],
      ["Retrieval:Description", "Generate:WriteSQL"],
      ["Generate:WriteSQL", "ExeSQL:Run"],
      ["ExeSQL:Run", "Switch:Failed"],
      ["Switch:Failed", "Generate:RepairSQL"],
      ["Switch:Failed", "Generate:Explain"],
      ["Generate:RepairSQL", "ExeSQL:Run"],
      ["Generate:Explain", "Answer:Interact"],
    ],
    [{ name: "Setup", at: [0, 2.3], text: `${SQL_SETUP} Then give the connection of your database in "Run SQL" (a read-only account is best) and test it.` }],
  ),
};

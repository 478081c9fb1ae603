import fs from "node:fs";
import { printCommittedSchema } from "./graphql/print-schema";
import { createSchema, SCHEMA_FILE } from "./schema";

describe("schema.graphql", () => {
  it("is what the TypeGraphQL classes emit (run `npm run schema` after changing them)", async () => {
    expect(fs.readFileSync(SCHEMA_FILE, "utf8")).toBe(printCommittedSchema(await createSchema()));
  });
});

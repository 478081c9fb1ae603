import "reflect-metadata";
import fs from "node:fs";
import { printCommittedSchema } from "./graphql/print-schema";
import { createSchema, SCHEMA_FILE } from "./schema";

/** `npm run schema`: writes schema.graphql from the TypeGraphQL classes. */
async function main(): Promise<void> {
  fs.writeFileSync(SCHEMA_FILE, printCommittedSchema(await createSchema()));
  console.log(`wrote ${SCHEMA_FILE}`);
}

void main();

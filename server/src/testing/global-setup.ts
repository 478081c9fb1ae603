import "reflect-metadata";
import { createDatabaseTemplate, TEMPLATE_VARIABLE } from "./database-template";

/** Jest's globalSetup: the migrated database template every test server starts from (see database-template.ts). */
export default async function globalSetup(): Promise<void> {
  process.env[TEMPLATE_VARIABLE] = await createDatabaseTemplate();
}

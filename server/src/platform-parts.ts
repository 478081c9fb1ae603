import { entities } from "./entities";
import { jobDefinitions } from "./jobs/registry";
import { migrations } from "./migrations";
import type { PlatformParts } from "./platform";

/** What every process hands the ground: the domains' entities, the migrations that make their tables, and their jobs. */
export const platformParts: PlatformParts = { entities, migrations, jobs: jobDefinitions };

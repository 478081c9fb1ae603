import fs from "node:fs";
import path from "node:path";

/**
 * The environment variables platform/config.ts reads, found in its source: through the EnvReader
 * (reader.integer("PORT", …)), or straight from the environment (env.X, env["X"]). The README's configuration table
 * and docker-compose.yml must name these and no others.
 */
export function variablesReadByConfig(): string[] {
  const source = fs.readFileSync(path.join(__dirname, "../platform/config.ts"), "utf8");
  const names = new Set<string>();
  for (const pattern of [/\breader\.\w+\(\s*"([A-Z][A-Z0-9_]*)"/g, /\benv\.([A-Z][A-Z0-9_]*)\b/g, /\benv\[\s*"([A-Z][A-Z0-9_]*)"\s*\]/g]) {
    for (const match of source.matchAll(pattern)) names.add(match[1]);
  }
  return [...names].sort();
}

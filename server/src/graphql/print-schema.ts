import { lexicographicSortSchema, printSchema, type GraphQLSchema } from "graphql";

/** The SDL as committed: sorted, so that the file changes only when the schema does. */
export function printCommittedSchema(schema: GraphQLSchema): string {
  return `# Generated from the server's TypeGraphQL classes by \`npm run schema\`. Do not edit.\n\n${printSchema(lexicographicSortSchema(schema))}\n`;
}

import { defaultFieldResolver, type GraphQLSchema } from "graphql";
import { DomainError } from "../platform/errors";

/** When each running operation must have answered, by its context (one context per operation, HTTP and graphql-ws alike). */
const deadlines = new WeakMap<object, number>();

const timedOut = (timeoutMs: number) => new DomainError("TIMEOUT", "errors.graphql.timeout", { seconds: Math.round(timeoutMs / 1000) });

/**
 * The execution time limit of queries and mutations: every root field answers by the operation's deadline,
 * set when its first root field starts, or fails with TIMEOUT (a root field starting after it fails at once,
 * so the later mutations of a long one never run). Only root fields are wrapped: they do the work, and
 * wrapping every field would make every scalar of a long list asynchronous. Subscriptions live as long as
 * their client wants and have no limit. The abandoned work finishes in the background, within its fair
 * share (platform/fair-scheduler.ts).
 */
export function limitExecutionTime(schema: GraphQLSchema, timeoutMs: number): GraphQLSchema {
  for (const rootType of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(rootType?.getFields() ?? {})) {
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = async (source, args, context: object, info) => {
        const now = Date.now();
        const deadline = deadlines.get(context) ?? now + timeoutMs;
        deadlines.set(context, deadline);
        if (now >= deadline) throw timedOut(timeoutMs);
        let timer: NodeJS.Timeout | undefined;
        const expired = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(timedOut(timeoutMs)), deadline - now);
        });
        try {
          return await Promise.race([resolve(source, args, context, info), expired]);
        } finally {
          clearTimeout(timer);
        }
      };
    }
  }
  return schema;
}

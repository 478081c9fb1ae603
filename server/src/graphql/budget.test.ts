import fs from "node:fs";
import path from "node:path";
import {
  buildSchema as buildSDL,
  execute,
  getNamedType,
  getVariableValues,
  isEnumType,
  isInputObjectType,
  isObjectType,
  isListType,
  isNonNullType,
  Kind,
  parse,
  specifiedRules,
  typeFromAST,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { loadConfig, type GraphQLBudget } from "../platform/config";
import { FIELD_COSTS } from "./field-costs";
import { budgetedOperations, MAX_DOCUMENT_TOKENS, operationCost, operationRules } from "./budget";
import { limitExecutionTime } from "./deadline";
import { createSchema } from "../schema";

/** The budget's rules on the real schema, without a server: what is refused, and that the client never is. */

let schema: GraphQLSchema;
const budget: GraphQLBudget = loadConfig({}).graphqlBudget;

beforeAll(async () => {
  schema = await createSchema();
});

const check = (query: string, variables?: Record<string, unknown>, limits: GraphQLBudget = budget) =>
  budgetedOperations(schema, limits, operationRules(limits, true))({ query, variables });

function refusal(result: ReturnType<typeof check>) {
  if (!Array.isArray(result)) throw new Error("the operation was accepted");
  return (result as { extensions: Record<string, unknown> }[]).map((e) => e.extensions);
}

const RETRIEVE = `retrieve(input: { question: "wind", knowledgeBaseIds: ["kb"] }) { total hits { similarity chunk { id content } } }`;

describe("the GraphQL budget", () => {
  test("300 aliased retrieve fields are refused, for their length, their aliases and their cost", () => {
    const query = `{ ${Array.from({ length: 300 }, (_, i) => `r${i}: ${RETRIEVE}`).join(" ")} }`;
    expect(refusal(check(query))).toEqual([
      expect.objectContaining({ code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooLong", params: { limit: MAX_DOCUMENT_TOKENS } }),
    ]);
    // Written as short as it can be (240 of them), it is within the length limit, and its aliases are not.
    const compact = `query ($i: RetrievalInput!) { ${Array.from({ length: 240 }, (_, i) => `r${i}: retrieve(input: $i) { total }`).join(" ")} }`;
    const variables = { i: { question: "wind", knowledgeBaseIds: ["kb"] } };
    expect(refusal(check(compact, variables))).toEqual([
      expect.objectContaining({ code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooManyAliases", params: { count: 240, limit: 20 } }),
    ]);
    expect(refusal(check(compact, variables, { ...budget, maxAliases: 1000 }))).toEqual([
      expect.objectContaining({ code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooCostly", params: { cost: 240 * FIELD_COSTS["Query.retrieve"], limit: 5000 } }),
    ]);
  });

  test("a retrieval is priced by its work and its page, whether the page size comes as a literal or a variable", () => {
    const one = operationCost(schema, parse(`{ ${RETRIEVE} }`), undefined);
    expect(one).toBeGreaterThan(FIELD_COSTS["Query.retrieve"]);
    // 30 hits by default, each a hit and its chunk.
    expect(one).toBe(FIELD_COSTS["Query.retrieve"] + 30 * 2);
    const paged = parse(`query ($input: RetrievalInput!) { retrieve(input: $input) { hits { chunk { id } } } }`);
    const cost = (pageSize: number) => operationCost(schema, paged, undefined, { input: { question: "q", knowledgeBaseIds: ["kb"], pageSize } });
    expect(cost(100)).toBe(FIELD_COSTS["Query.retrieve"] + 100 * 2);
    expect(refusal(check(paged.loc!.source.body, { input: { question: "q", knowledgeBaseIds: ["kb"], pageSize: 1_000_000 } }))[0]).toMatchObject({
      messageKey: "errors.graphql.tooCostly",
    });
    expect(check(`{ a: ${RETRIEVE} b: ${RETRIEVE} }`)).not.toBeInstanceOf(Array);
  });

  test("over graphql-ws a document that passed is kept, and its cost is still checked against each subscription's variables", () => {
    const operations = budgetedOperations(schema, budget, operationRules(budget, true));
    const query = `query ($input: RetrievalInput!) { retrieve(input: $input) { hits { chunk { id } } } }`;
    const small = operations({ query, variables: { input: { question: "q", knowledgeBaseIds: ["kb"], pageSize: 10 } } });
    const again = operations({ query, variables: { input: { question: "q", knowledgeBaseIds: ["kb"], pageSize: 20 } } });
    if (Array.isArray(small) || Array.isArray(again)) throw new Error("the operation was refused");
    expect((again as ExecutionArgs).document).toBe((small as ExecutionArgs).document);
    expect(refusal(operations({ query, variables: { input: { question: "q", knowledgeBaseIds: ["kb"], pageSize: 1_000_000 } } }))[0]).toMatchObject({
      messageKey: "errors.graphql.tooCostly",
    });
    // A document that failed is not kept: it is refused each time, with its own errors.
    const invalid = `{ me { noSuchField } }`;
    expect(operations({ query: invalid })).toEqual(operations({ query: invalid }));
    expect(operations({ query: invalid })).toBeInstanceOf(Array);
  });

  test("a list is counted once per row, and the ids a mutation is given are its rows", () => {
    expect(operationCost(schema, parse(`{ knowledgeBases(pageSize: 50) { total items { id name } } }`), undefined)).toBe(1 + 50 * 1);
    expect(operationCost(schema, parse(`mutation { runParsing(ids: ["a", "b", "c"]) { id } }`), undefined)).toBe(FIELD_COSTS["Mutation.runParsing"]);
    expect(operationCost(schema, parse(`mutation { setDocumentsEnabled(ids: ["a", "b", "c"], enabled: true) { id } }`), undefined)).toBe(1);
    // Skipped fields cost nothing.
    expect(operationCost(schema, parse(`query ($skip: Boolean!) { chatStatistics(from: "2026-01-01", to: "2026-01-31") @skip(if: $skip) { days } }`), undefined, { skip: true })).toBe(0);
  });

  test("every field the cost table names exists, so that a renamed field cannot silently become cheap", () => {
    for (const key of Object.keys(FIELD_COSTS)) {
      const [type, field] = key.split(".");
      const owner = schema.getType(type);
      expect(owner && isObjectType(owner) ? owner.getFields()[field] : undefined).toBeDefined();
    }
  });

  test("an operation nested deeper than the limit is refused, introspection aside", () => {
    const deep = `{ conversations(assistantId: "a") { messages { references { chunkId } } } }`;
    expect(check(deep)).not.toBeInstanceOf(Array);
    expect(refusal(check(deep, undefined, { ...budget, maxDepth: 2 }))).toEqual([
      expect.objectContaining({ code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooDeep", params: { depth: 4, limit: 2 } }),
    ]);
    // Through a fragment it is just as deep.
    const viaFragment = `{ conversations(assistantId: "a") { ...C } } fragment C on Conversation { messages { references { chunkId } } }`;
    expect(refusal(check(viaFragment, undefined, { ...budget, maxDepth: 2 }))[0]).toMatchObject({ messageKey: "errors.graphql.tooDeep" });
    expect(check(`{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }`, undefined, { ...budget, maxDepth: 2 })).not.toBeInstanceOf(Array);
  });

  test("a document over the token limit is refused before validation", () => {
    const repeated = `{ ${"me { id } ".repeat(MAX_DOCUMENT_TOKENS)} }`;
    expect(refusal(check(repeated))).toEqual([expect.objectContaining({ code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooLong" })]);
  });

  test("introspection is refused when configuration turns it off", () => {
    const errors = validate(schema, parse(`{ __schema { queryType { name } } }`), [...specifiedRules, ...operationRules(budget, false)]);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error.message).toContain("introspection");
  });
});

/** A value for each variable the operation declares, so that its cost can be computed: page sizes are 0 (all rows), the worst. */
function sampleVariables(schema: GraphQLSchema, document: DocumentNode): Record<string, unknown> {
  const sample = (type: GraphQLInputType, name: string): unknown => {
    if (isNonNullType(type)) return sample(type.ofType, name);
    if (isListType(type)) return [sample(type.ofType, name)];
    const named = getNamedType(type);
    if (isEnumType(named)) return named.getValues()[0].name;
    if (isInputObjectType(named)) {
      return Object.fromEntries(Object.values(named.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, sample(f.type, f.name)]));
    }
    if (named.name === "Int") return name === "pageSize" ? 0 : 1;
    if (named.name === "Float") return 0.5;
    if (named.name === "Boolean") return true;
    if (named.name === "JSONObject") return {};
    return "x";
  };
  const variables: Record<string, unknown> = {};
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      variables[variable.variable.name.value] = sample(typeFromAST(schema, variable.type as never) as GraphQLInputType, variable.variable.name.value);
    }
  }
  return variables;
}

describe("the client's own operations", () => {
  const dir = path.resolve(__dirname, "../../../client/src/graphql");
  const sources = fs.readdirSync(dir).filter((f) => f.endsWith(".graphql")).map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
  const all = parse(sources.join("\n"));
  const fragments = all.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  const operations = all.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);

  test("all stay within the default budget, with every page size at its largest", () => {
    expect(operations.length).toBeGreaterThan(20);
    let costliest = { name: "", cost: 0 };
    for (const operation of operations) {
      const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation, ...fragments] };
      const name = operation.kind === Kind.OPERATION_DEFINITION ? (operation.name?.value ?? "") : "";
      const variables = sampleVariables(schema, document);
      const definition = operation as OperationDefinitionNode;
      expect({ name, errors: getVariableValues(schema, definition.variableDefinitions ?? [], variables).errors }).toEqual({ name, errors: undefined });
      const validation = validate(schema, document, [...specifiedRules.filter((r) => r.name !== "NoUnusedFragmentsRule"), ...operationRules(budget, false)]);
      expect({ name, errors: validation.map((e) => e.message) }).toEqual({ name, errors: [] });
      const cost = operationCost(schema, document, name, variables);
      if (cost > costliest.cost) costliest = { name, cost };
    }
    expect(costliest.cost).toBeGreaterThan(0);
    expect(costliest.cost).toBeLessThanOrEqual(budget.maxCost);
  });
});

describe("the execution time limit", () => {
  test("a query that outlives it fails with TIMEOUT, and one within it answers", async () => {
    let release!: () => void;
    const slow = buildSDL(`type Query { slow: String quick: String }`);
    slow.getQueryType()!.getFields().slow.resolve = () => new Promise<string>((resolve) => (release = () => resolve("late")));
    slow.getQueryType()!.getFields().quick.resolve = () => "quick";
    limitExecutionTime(slow, 50);
    const result = await execute({ schema: slow, document: parse(`{ slow quick }`), contextValue: {} });
    expect(result.data).toEqual({ slow: null, quick: "quick" });
    expect(result.errors?.[0].originalError).toMatchObject({ kind: "TIMEOUT", messageKey: "errors.graphql.timeout" });
    release();
  });
});

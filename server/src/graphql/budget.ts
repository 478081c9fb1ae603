import type { ApolloServerPlugin } from "@apollo/server";
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isInputObjectType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  Lexer,
  NoSchemaIntrospectionCustomRule,
  parse,
  Source,
  specifiedRules,
  TokenKind,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ParseOptions,
  type SelectionSetNode,
  type ValidationRule,
} from "graphql";
import type { GraphQLBudget } from "../platform/config";
import { OverBudget, type DomainError } from "../platform/errors";
import { FIELD_COSTS, FIELD_MAX_ROWS } from "./field-costs";

/**
 * The one budget of a GraphQL operation, applied to HTTP (Apollo: parse options, validation rules and a
 * plugin) and to graphql-ws (`budgetedOperation` in onSubscribe) alike, before any resolver runs:
 * - a document of at most MAX_DOCUMENT_TOKENS tokens (checked before Apollo by app.ts), which bounds repeated fields (and the work of
 *   graphql-js's field-merging check, which grows with the square of a field's repetitions);
 * - at most `maxDepth` levels of nested fields and `maxAliases` aliases;
 * - at most `maxCost` points (graphql/field-costs.ts), children counted once per row of their page.
 * The time limit is graphql/deadline.ts.
 */

/** The client's largest operation is under 500 tokens. Measured: 3,000 tokens of one repeated field validate in about 0.1 s. */
export const MAX_DOCUMENT_TOKENS = 3000;
/** graphql-js's own stop, behind `tooLong`: an untranslated syntax error, should anything reach the parser unchecked. */
export const PARSE_OPTIONS: ParseOptions = { maxTokens: MAX_DOCUMENT_TOKENS };

/** A document over MAX_DOCUMENT_TOKENS, counted before it is parsed (a lexer pass, stopped at the limit). */
export function tooLong(query: unknown): DomainError | null {
  if (typeof query !== "string") return null;
  const lexer = new Lexer(new Source(query));
  try {
    for (let tokens = 0; lexer.advance().kind !== TokenKind.EOF; tokens++) {
      if (tokens >= MAX_DOCUMENT_TOKENS) return OverBudget("errors.graphql.tooLong", { limit: MAX_DOCUMENT_TOKENS });
    }
  } catch {
    return null; // a syntax error, which the parser reports
  }
  return null;
}

/** Arguments that say how many rows a field returns; `pageSize` may also sit in an input object (retrieve's input). */
const SIZE_ARGUMENTS = ["first", "last", "limit", "pageSize", "size"];
/** What a page-size argument that is left out means: the services' default page. */
const DEFAULT_PAGE_SIZE = 30;
/** What page size 0 ("all", or a count only) is priced as. */
const ALL_ROWS = 1000;
/** A list with no size argument of its own (an assistant's knowledge bases, a chunk's positions). */
const DEFAULT_LIST_SIZE = 10;

type Fragments = Record<string, FragmentDefinitionNode>;

const overBudget = (error: DomainError, node?: OperationDefinitionNode) =>
  new GraphQLError(error.message, { nodes: node, originalError: error, extensions: error.extensions });

/** Introspection describes the schema and touches no data; its own depth is the schema's business. */
const isIntrospection = (field: FieldNode) => field.name.value.startsWith("__");

function fragmentsOf(document: DocumentNode): Fragments {
  const fragments: Fragments = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  return fragments;
}

/** The fields a selection set selects, fragments spread in; a fragment already being spread is skipped (a cycle, refused by validation). */
function* fieldsOf(selectionSet: SelectionSetNode, fragments: Fragments, spreading: Set<string> = new Set()): Generator<FieldNode> {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) yield selection;
    else if (selection.kind === Kind.INLINE_FRAGMENT) yield* fieldsOf(selection.selectionSet, fragments, spreading);
    else {
      const name = selection.name.value;
      const fragment = fragments[name];
      if (!fragment || spreading.has(name)) continue;
      spreading.add(name);
      yield* fieldsOf(fragment.selectionSet, fragments, spreading);
      spreading.delete(name);
    }
  }
}

function shape(selectionSet: SelectionSetNode, fragments: Fragments): { depth: number; aliases: number } {
  let depth = 0;
  let aliases = 0;
  for (const field of fieldsOf(selectionSet, fragments)) {
    if (isIntrospection(field)) continue;
    if (field.alias) aliases++;
    const inner = field.selectionSet ? shape(field.selectionSet, fragments) : { depth: 0, aliases: 0 };
    depth = Math.max(depth, inner.depth + 1);
    aliases += inner.aliases;
  }
  return { depth, aliases };
}

/**
 * The rules checked with graphql-js's own, on HTTP and graphql-ws: depth and aliases (which need no variables)
 * and, unless configuration allows it, no introspection.
 */
export function operationRules(budget: GraphQLBudget, introspection: boolean): ValidationRule[] {
  const depthAndAliases: ValidationRule = (context) => ({
    OperationDefinition(operation) {
      const fragments = fragmentsOf(context.getDocument());
      const { depth, aliases } = shape(operation.selectionSet, fragments);
      if (depth > budget.maxDepth) context.reportError(overBudget(OverBudget("errors.graphql.tooDeep", { depth, limit: budget.maxDepth }), operation));
      if (aliases > budget.maxAliases) {
        context.reportError(overBudget(OverBudget("errors.graphql.tooManyAliases", { count: aliases, limit: budget.maxAliases }), operation));
      }
    },
  });
  return introspection ? [depthAndAliases] : [depthAndAliases, NoSchemaIntrospectionCustomRule];
}

function included(field: FieldNode, variables: Record<string, unknown>): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, field, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, field, variables)?.if !== false;
}

function argumentsOf(definition: GraphQLField<unknown, unknown>, field: FieldNode, variables: Record<string, unknown>): Record<string, unknown> {
  try {
    return getArgumentValues(definition, field, variables);
  } catch {
    return {}; // invalid arguments: execution refuses them before any resolver runs
  }
}

/** How many rows a field's children are counted for; undefined when it takes no size argument. */
function requestedRows(definition: GraphQLField<unknown, unknown>, args: Record<string, unknown>, maxRows = Infinity): number | undefined {
  for (const argument of definition.args) {
    const type = getNamedType(argument.type);
    const holder: [string, unknown][] = isInputObjectType(type)
      ? Object.keys(type.getFields()).map((name) => [name, (args[argument.name] as Record<string, unknown> | undefined)?.[name]])
      : [[argument.name, args[argument.name]]];
    for (const [name, value] of holder) {
      if (!SIZE_ARGUMENTS.includes(name)) continue;
      if (typeof value !== "number") return Math.min(DEFAULT_PAGE_SIZE, maxRows);
      return Math.min(value <= 0 ? ALL_ROWS : value, maxRows);
    }
  }
  if (Array.isArray(args.ids)) return args.ids.length;
  return undefined;
}

/** Inline fragments and spreads are counted on the parent type: the schema has no interfaces or unions. */
function selectionCost(
  selectionSet: SelectionSetNode,
  parentType: GraphQLNamedType,
  fragments: Fragments,
  variables: Record<string, unknown>,
  /** The parent took a size argument: its lists are its rows, already counted. */
  rowsCounted: boolean,
): number {
  let cost = 0;
  for (const field of fieldsOf(selectionSet, fragments)) {
    if (isIntrospection(field) || !included(field, variables) || !isObjectType(parentType)) continue;
    const definition = parentType.getFields()[field.name.value];
    if (!definition) continue;
    const own = FIELD_COSTS[`${parentType.name}.${definition.name}`];
    const type = getNamedType(definition.type);
    if (isLeafType(type) || !field.selectionSet) {
      cost += own ?? 0;
      continue;
    }
    const rows = requestedRows(definition, argumentsOf(definition, field, variables), FIELD_MAX_ROWS[`${parentType.name}.${definition.name}`]);
    const isList = isListType(getNullableType(definition.type));
    const multiplier = rows ?? (isList && !rowsCounted ? DEFAULT_LIST_SIZE : 1);
    cost += (own ?? 1) + multiplier * selectionCost(field.selectionSet, type, fragments, variables, rows !== undefined);
  }
  return cost;
}

/** The points an operation costs with these variables; 0 when its variables do not coerce (execution refuses them). */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> = {}): number {
  const operation = getOperationAST(document, operationName);
  const rootType = operation && schema.getRootType(operation.operation);
  if (!operation || !rootType) return 0;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (!coerced.coerced) return 0;
  return selectionCost(operation.selectionSet, rootType, fragmentsOf(document), coerced.coerced, false);
}

function costError(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | undefined, budget: GraphQLBudget): GraphQLError | null {
  const cost = operationCost(schema, document, operationName, variables);
  if (cost <= budget.maxCost) return null;
  return overBudget(OverBudget("errors.graphql.tooCostly", { cost, limit: budget.maxCost }), getOperationAST(document, operationName) ?? undefined);
}

/** HTTP: the cost needs the request's variables, so it is checked once the operation is known, before execution. */
export function budgetPlugin(budget: GraphQLBudget): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operationName, request }) {
          const error = costError(schema, document, operationName, request.variables, budget);
          if (error) throw new GraphQLError(error.message, { nodes: error.nodes, originalError: error.originalError, extensions: { ...error.extensions, http: { status: 400 } } });
        },
      };
    },
  };
}

/** How many distinct valid documents `budgetedOperations` keeps parsed and validated. */
const VALIDATED_DOCUMENTS_KEPT = 500;

/**
 * graphql-ws (onSubscribe): the same parse limit, validation rules and cost as HTTP, or the errors to send
 * back. Like Apollo's document store over HTTP, a document that passed parsing and validation is kept (the
 * last VALIDATED_DOCUMENTS_KEPT, by text), so a client that subscribes with the same operation again pays
 * only for its variables' cost.
 */
export function budgetedOperations(schema: GraphQLSchema, budget: GraphQLBudget, rules: ValidationRule[]) {
  const validated = new Map<string, DocumentNode>();
  const validDocument = (query: string): { document: DocumentNode } | { errors: readonly GraphQLError[] } => {
    const kept = validated.get(query);
    if (kept) return { document: kept };
    const long = tooLong(query);
    if (long) return { errors: [overBudget(long)] };
    let document: DocumentNode;
    try {
      document = parse(query, PARSE_OPTIONS);
    } catch (error) {
      return { errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error))] };
    }
    const errors = validate(schema, document, [...specifiedRules, ...rules]);
    if (errors.length > 0) return { errors };
    if (validated.size >= VALIDATED_DOCUMENTS_KEPT) validated.delete(validated.keys().next().value!);
    validated.set(query, document);
    return { document };
  };
  return (payload: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null }): ExecutionArgs | readonly GraphQLError[] => {
    const valid = validDocument(payload.query);
    if ("errors" in valid) return valid.errors;
    const variables = payload.variables ?? undefined;
    const tooCostly = costError(schema, valid.document, payload.operationName, variables, budget);
    if (tooCostly) return [tooCostly];
    return { schema, document: valid.document, operationName: payload.operationName, variableValues: variables };
  };
}

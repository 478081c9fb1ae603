/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "fragment ApiTokenRow on ApiToken {\n  id\n  hint\n  createdAt\n  lastUsedAt\n}\n\nquery ApiTokens {\n  apiTokens {\n    ...ApiTokenRow\n  }\n}\n\nmutation CreateApiToken {\n  createApiToken {\n    token\n    apiToken {\n      ...ApiTokenRow\n    }\n  }\n}\n\nmutation DeleteApiToken($id: ID!) {\n  deleteApiToken(id: $id)\n}": typeof types.ApiTokenRowFragmentDoc,
    "fragment SignedInUser on User {\n  id\n  email\n  nickname\n  avatar\n  colorSchema\n  timezone\n  language\n  createdAt\n  lastLoginAt\n}\n\nquery Me {\n  me {\n    ...SignedInUser\n  }\n}\n\nmutation Login($input: LoginInput!) {\n  login(input: $input) {\n    token\n    expiresAt\n    user {\n      ...SignedInUser\n    }\n  }\n}\n\nmutation Register($input: RegisterInput!) {\n  register(input: $input) {\n    id\n    email\n  }\n}\n\nmutation Logout {\n  logout\n}": typeof types.SignedInUserFragmentDoc,
    "mutation UpdateProfile($input: ProfileInput!) {\n  updateProfile(input: $input) {\n    ...SignedInUser\n  }\n}\n\nmutation ChangePassword($input: ChangePasswordInput!) {\n  changePassword(input: $input)\n}": typeof types.UpdateProfileDocument,
};
const documents: Documents = {
    "fragment ApiTokenRow on ApiToken {\n  id\n  hint\n  createdAt\n  lastUsedAt\n}\n\nquery ApiTokens {\n  apiTokens {\n    ...ApiTokenRow\n  }\n}\n\nmutation CreateApiToken {\n  createApiToken {\n    token\n    apiToken {\n      ...ApiTokenRow\n    }\n  }\n}\n\nmutation DeleteApiToken($id: ID!) {\n  deleteApiToken(id: $id)\n}": types.ApiTokenRowFragmentDoc,
    "fragment SignedInUser on User {\n  id\n  email\n  nickname\n  avatar\n  colorSchema\n  timezone\n  language\n  createdAt\n  lastLoginAt\n}\n\nquery Me {\n  me {\n    ...SignedInUser\n  }\n}\n\nmutation Login($input: LoginInput!) {\n  login(input: $input) {\n    token\n    expiresAt\n    user {\n      ...SignedInUser\n    }\n  }\n}\n\nmutation Register($input: RegisterInput!) {\n  register(input: $input) {\n    id\n    email\n  }\n}\n\nmutation Logout {\n  logout\n}": types.SignedInUserFragmentDoc,
    "mutation UpdateProfile($input: ProfileInput!) {\n  updateProfile(input: $input) {\n    ...SignedInUser\n  }\n}\n\nmutation ChangePassword($input: ChangePasswordInput!) {\n  changePassword(input: $input)\n}": types.UpdateProfileDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ApiTokenRow on ApiToken {\n  id\n  hint\n  createdAt\n  lastUsedAt\n}\n\nquery ApiTokens {\n  apiTokens {\n    ...ApiTokenRow\n  }\n}\n\nmutation CreateApiToken {\n  createApiToken {\n    token\n    apiToken {\n      ...ApiTokenRow\n    }\n  }\n}\n\nmutation DeleteApiToken($id: ID!) {\n  deleteApiToken(id: $id)\n}"): (typeof documents)["fragment ApiTokenRow on ApiToken {\n  id\n  hint\n  createdAt\n  lastUsedAt\n}\n\nquery ApiTokens {\n  apiTokens {\n    ...ApiTokenRow\n  }\n}\n\nmutation CreateApiToken {\n  createApiToken {\n    token\n    apiToken {\n      ...ApiTokenRow\n    }\n  }\n}\n\nmutation DeleteApiToken($id: ID!) {\n  deleteApiToken(id: $id)\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment SignedInUser on User {\n  id\n  email\n  nickname\n  avatar\n  colorSchema\n  timezone\n  language\n  createdAt\n  lastLoginAt\n}\n\nquery Me {\n  me {\n    ...SignedInUser\n  }\n}\n\nmutation Login($input: LoginInput!) {\n  login(input: $input) {\n    token\n    expiresAt\n    user {\n      ...SignedInUser\n    }\n  }\n}\n\nmutation Register($input: RegisterInput!) {\n  register(input: $input) {\n    id\n    email\n  }\n}\n\nmutation Logout {\n  logout\n}"): (typeof documents)["fragment SignedInUser on User {\n  id\n  email\n  nickname\n  avatar\n  colorSchema\n  timezone\n  language\n  createdAt\n  lastLoginAt\n}\n\nquery Me {\n  me {\n    ...SignedInUser\n  }\n}\n\nmutation Login($input: LoginInput!) {\n  login(input: $input) {\n    token\n    expiresAt\n    user {\n      ...SignedInUser\n    }\n  }\n}\n\nmutation Register($input: RegisterInput!) {\n  register(input: $input) {\n    id\n    email\n  }\n}\n\nmutation Logout {\n  logout\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UpdateProfile($input: ProfileInput!) {\n  updateProfile(input: $input) {\n    ...SignedInUser\n  }\n}\n\nmutation ChangePassword($input: ChangePasswordInput!) {\n  changePassword(input: $input)\n}"): (typeof documents)["mutation UpdateProfile($input: ProfileInput!) {\n  updateProfile(input: $input) {\n    ...SignedInUser\n  }\n}\n\nmutation ChangePassword($input: ChangePasswordInput!) {\n  changePassword(input: $input)\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;
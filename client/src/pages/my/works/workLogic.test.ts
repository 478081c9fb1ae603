import { describe, expect, test } from "@jest/globals";
import { CombinedGraphQLErrors } from "@apollo/client/errors";
import { renameProblemsOf, workPath } from "./workLogic";

const work = { id: "w1", variant: null, parentId: null };

describe("where a work opens", () => {
  test("each kind on its own page", () => {
    expect(workPath({ ...work, kind: "knowledgeBase" })).toBe("/knowledge/dataset?id=w1");
    expect(workPath({ ...work, kind: "assistant" })).toBe("/chat?assistant=w1");
    expect(workPath({ ...work, kind: "flow" })).toBe("/flow/w1");
    expect(workPath({ ...work, kind: "search" })).toBe("/search?record=w1");
  });

  test("a folder opens itself, a file the folder that holds it", () => {
    expect(workPath({ ...work, kind: "file", variant: "folder", parentId: "root" })).toBe("/file?folder=w1");
    expect(workPath({ ...work, kind: "file", variant: "file", parentId: "maps" })).toBe("/file?folder=maps");
  });
});

describe("a failed rename's problems", () => {
  const failure = (extensions: Record<string, unknown>) => new CombinedGraphQLErrors({ errors: [{ message: "no", extensions }] });

  test("go under the name field, whatever field the kind checks", () => {
    expect(renameProblemsOf(failure({ code: "BAD_REQUEST", messageKey: "flow.errors.titleRequired", fields: [{ field: "title", messageKey: "flow.errors.titleRequired" }] })).name?.key).toBe("flow.errors.titleRequired");
  });

  test("a name in use without a field goes there too, and anything else does not", () => {
    expect(renameProblemsOf(failure({ code: "CONFLICT", messageKey: "flow.errors.titleTaken" })).name?.key).toBe("flow.errors.titleTaken");
    expect(renameProblemsOf(failure({ code: "INTERNAL", messageKey: "errors.internal" }))).toEqual({});
  });
});

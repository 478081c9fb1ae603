import { expect, test } from "@jest/globals";
import { grantedBy, offeredBy } from "./fileActions";

const all = { read: true, use: true, manage: true, delete: true };

test("the permissions the server grants are kept by name", () => {
  expect(grantedBy(all)).toEqual(["read", "use", "manage", "delete"]);
  expect(grantedBy({ read: true, use: false, manage: false, delete: true })).toEqual(["read", "delete"]);
});

test("a read-only .knowledgebase entry offers only reading, even where the user may manage the folders around it", () => {
  expect(offeredBy({ can: all, readOnly: true })).toEqual(["read"]);
  expect(offeredBy({ can: { ...all, read: false }, readOnly: true })).toEqual([]);
  expect(offeredBy({ can: all, readOnly: false })).toEqual(["read", "use", "manage", "delete"]);
});

import { beforeAll, expect, jest, test } from "@jest/globals";

// documentTransfer reads the signed-in user's token from the browser's storage, which Node has not.
jest.mock("../session/authStore", () => ({ authStore: { getCredential: () => null } }));

let selection: typeof import("./uploadSelection");
let limits: typeof import("./documentTransfer");
beforeAll(async () => {
  selection = await import("./uploadSelection");
  limits = await import("./documentTransfer");
});

/** The upload dialog's list of files: a file picked twice is listed once, and §9's limits block the upload. */

const file = (name: string, size: number) => ({ name, size });

test("a file picked again (same name and size) is not listed twice", () => {
  const files = selection.withAdded([file("a.pdf", 10)], [file("a.pdf", 10), file("a.pdf", 11), file("b.txt", 10)]);
  expect(files).toEqual([file("a.pdf", 10), file("a.pdf", 11), file("b.txt", 10)]);
});

test("nothing to upload, a file over 10 MB, or more than 128 files block the upload", () => {
  expect(selection.uploadLimitsOf([]).blocked).toBe(true);
  expect(selection.uploadLimitsOf([file("a.pdf", limits.MAX_FILE_BYTES)])).toEqual({ tooLarge: [], tooMany: false, blocked: false });
  const large = file("big.pdf", limits.MAX_FILE_BYTES + 1);
  expect(selection.uploadLimitsOf([file("a.pdf", 1), large])).toEqual({ tooLarge: [large], tooMany: false, blocked: true });
  const many = Array.from({ length: limits.MAX_FILES_PER_UPLOAD + 1 }, (_, index) => file(`${index}.txt`, 1));
  expect(selection.uploadLimitsOf(many)).toMatchObject({ tooMany: true, blocked: true });
});

test("two files of the same name and size in different folders of a picked folder are both listed", () => {
  const inA = { name: "notes.md", size: 5, webkitRelativePath: "trip/a/notes.md" };
  const inB = { name: "notes.md", size: 5, webkitRelativePath: "trip/b/notes.md" };
  expect(selection.withAdded([inA], [inB, inA])).toEqual([inA, inB]);
});

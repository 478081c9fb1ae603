import { expect, test } from "@jest/globals";
import { foldersCreatedBy, uploadPathOf } from "./folderUpload";

/** A picked folder is uploaded with each file's path inside it, so that the server rebuilds the folders. */

test("a file of a picked folder keeps its path inside that folder; a single file only its name", () => {
  expect(uploadPathOf({ name: "a.jpg", size: 1, webkitRelativePath: "trip/photos/a.jpg" })).toBe("trip/photos/a.jpg");
  expect(uploadPathOf({ name: "notes.md", size: 1, webkitRelativePath: "" })).toBe("notes.md");
  expect(uploadPathOf({ name: "notes.md", size: 1 })).toBe("notes.md");
});

test("backslashes, empty and '.' segments of a path are dropped", () => {
  expect(uploadPathOf({ name: "b.txt", size: 1, webkitRelativePath: "trip\\./docs//b.txt" })).toBe("trip/docs/b.txt");
});

test("the folders an upload creates are listed once each, parents first", () => {
  expect(foldersCreatedBy(["trip/photos/a.jpg", "trip/photos/b.jpg", "trip/notes.md", "trip/docs/x/y.pdf", "top.txt"])).toEqual([
    "trip",
    "trip/docs",
    "trip/photos",
    "trip/docs/x",
  ]);
  expect(foldersCreatedBy(["a.txt"])).toEqual([]);
});

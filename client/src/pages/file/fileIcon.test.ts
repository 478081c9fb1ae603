import { expect, test } from "@jest/globals";
import { LuFile, LuFileSpreadsheet, LuFolder, LuFolderLock } from "react-icons/lu";
import { extensionOf, fileIconOf, nameWithoutSuffix } from "./fileIcon";

test("a file is renamed without its extension, which stays", () => {
  expect(nameWithoutSuffix("report.final.PDF", "pdf")).toBe("report.final");
  expect(nameWithoutSuffix("README", "")).toBe("README");
  expect(nameWithoutSuffix("notes.txt", "md")).toBe("notes.txt");
});

test("a row's icon says folder (locked when read-only) or the file's type", () => {
  expect(extensionOf("Sales.XLSX")).toBe("xlsx");
  expect(extensionOf(".env")).toBe("");
  expect(fileIconOf("Sales.XLSX", false)).toBe(LuFileSpreadsheet);
  expect(fileIconOf("unknown.zzz", false)).toBe(LuFile);
  expect(fileIconOf("trip", true)).toBe(LuFolder);
  expect(fileIconOf("Harbour", true, true)).toBe(LuFolderLock);
});

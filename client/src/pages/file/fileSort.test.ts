import { expect, test } from "@jest/globals";
import { DEFAULT_SORT, sortAfterClick } from "./fileSort";

test("the newest uploads come first until a column is clicked", () => {
  expect(DEFAULT_SORT).toEqual({ column: "createdAt", descending: true });
});

test("clicking the sorted column turns it; another column starts A→Z for names, largest or newest first otherwise", () => {
  expect(sortAfterClick(DEFAULT_SORT, "createdAt")).toEqual({ column: "createdAt", descending: false });
  expect(sortAfterClick(DEFAULT_SORT, "name")).toEqual({ column: "name", descending: false });
  expect(sortAfterClick({ column: "name", descending: false }, "size")).toEqual({ column: "size", descending: true });
  expect(sortAfterClick({ column: "name", descending: false }, "name")).toEqual({ column: "name", descending: true });
});

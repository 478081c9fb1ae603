import { describe, expect, test } from "@jest/globals";
import { slideAfterKey } from "./slideKeys";

describe("moving through the slides with the keyboard", () => {
  test("forward and back, stopping at either end", () => {
    expect(slideAfterKey("ArrowRight", false, 0, 3)).toBe(1);
    expect(slideAfterKey(" ", false, 1, 3)).toBe(2);
    expect(slideAfterKey("ArrowRight", false, 2, 3)).toBe(2);
    expect(slideAfterKey("ArrowLeft", false, 2, 3)).toBe(1);
    expect(slideAfterKey(" ", true, 1, 3)).toBe(0);
    expect(slideAfterKey("ArrowLeft", false, 0, 3)).toBe(0);
  });

  test("Home and End jump to the first and the last", () => {
    expect(slideAfterKey("Home", false, 2, 5)).toBe(0);
    expect(slideAfterKey("End", false, 0, 5)).toBe(4);
  });

  test("other keys, and no slides at all, move nothing", () => {
    expect(slideAfterKey("a", false, 1, 3)).toBeNull();
    expect(slideAfterKey("ArrowRight", false, 0, 0)).toBeNull();
  });
});

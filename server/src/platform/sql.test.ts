import { storableJson, storableText } from "./sql";

describe("what PostgreSQL's text and jsonb can hold", () => {
  test("U+0000 becomes U+FFFD in text, and any other text is left as it is", () => {
    expect(storableText("raw \u0000 bytes\u0000")).toBe("raw \uFFFD bytes\uFFFD");
    expect(storableText("plain ✓")).toBe("plain ✓");
  });

  test("U+0000 becomes U+FFFD in JSON's keys and values, and a written backslash followed by u0000 stays as written", () => {
    const value = { "k\u0000": ["a\u0000b", "\\u0000", "\\\u0000", { deep: "\u0000" }], n: 1 };
    expect(JSON.parse(storableJson(value))).toEqual({ "k\uFFFD": ["a\uFFFDb", "\\u0000", "\\\uFFFD", { deep: "\uFFFD" }], n: 1 });
    expect(storableJson(value)).not.toMatch(/(?<!\\)(\\\\)*\\u0000/);
  });
});

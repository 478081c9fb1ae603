import { graphqlWritesNulCharacter, holdsNulCharacter, storableJson, storableText } from "./sql";

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

  test("input holding U+0000 is found at any depth, in keys too, and bytes are not text", () => {
    expect(holdsNulCharacter({ a: [{ b: "x\u0000" }] })).toBe(true);
    expect(holdsNulCharacter({ "k\u0000": 1 })).toBe(true);
    expect(holdsNulCharacter({ a: ["\\u0000", 0, null, true] })).toBe(false);
    expect(holdsNulCharacter(Buffer.from([0, 0]))).toBe(false);
  });

  test("a GraphQL document writing U+0000 is told from one writing a backslash before u0000", () => {
    expect(graphqlWritesNulCharacter(String.raw`{ a(x: "a\u0000b") }`)).toBe(true);
    expect(graphqlWritesNulCharacter(String.raw`{ a(x: "\u{0}") }`)).toBe(true);
    expect(graphqlWritesNulCharacter(String.raw`{ a(x: "a\\u0000b") }`)).toBe(false);
    expect(graphqlWritesNulCharacter(String.raw`{ a(x: "\\\u0000") }`)).toBe(true);
  });
});

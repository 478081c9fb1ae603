import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CHUNK_METHOD_NAMES, chunkMethod, chunkMethods } from "./registry";
import { context, doc, h, p } from "./test-support";

const LOCALES = ["en", "zh", "zh-TRADITIONAL", "id", "es"];

describe("chunk-method registry", () => {
  it("offers RAGFlow's fourteen methods by their ids, each with the file types the configuration page lists", () => {
    expect([...CHUNK_METHOD_NAMES].sort()).toEqual(
      ["book", "email", "knowledge_graph", "laws", "manual", "naive", "one", "paper", "picture", "presentation", "qa", "resume", "table", "tag"],
    );
    expect(chunkMethods.map((m) => m.name)).toEqual([...CHUNK_METHOD_NAMES]);
    for (const method of chunkMethods) {
      expect(chunkMethod(method.name)).toBe(method);
      expect(method.fileTypes.length).toBeGreaterThan(0);
      for (const type of method.fileTypes) expect(type).toMatch(/^[a-z0-9]+$/);
    }
    expect(chunkMethod("nonsense")).toBeUndefined();
  });

  it("explains every method in every language: label, description and example", () => {
    for (const locale of LOCALES) {
      const texts = JSON.parse(readFileSync(join(__dirname, "../../../../locales", `${locale}.json`), "utf8")).chunkMethods;
      for (const name of CHUNK_METHOD_NAMES) {
        expect({ locale, name, ...texts?.[name] }).toEqual({ locale, name, label: expect.any(String), description: expect.any(String), example: expect.any(String) });
      }
    }
  });

  it("no method makes an empty chunk or one with untrimmed text, whatever the blocks", async () => {
    const document = doc([h(1, "  Title  "), p("  "), p(" Some text.  "), { kind: "table", header: [], rows: [["", ""]] }, { kind: "pageBreak", page: 2 }]);
    for (const method of chunkMethods) {
      const { chunks } = await method.chunk(document, context());
      for (const chunk of chunks) {
        expect(chunk.text.trim()).not.toBe("");
        expect(chunk.text).toBe(chunk.text.trim());
      }
    }
  });
});

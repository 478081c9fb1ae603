import { parserContext, sampleJson } from "../testing/sample-files";
import { ParseError } from "../types";
import { jsonParser } from "./json";

describe("the JSON parser", () => {
  it("writes each item of a top-level array as a paragraph of key paths and values", async () => {
    const document = await jsonParser.parse(await sampleJson(), parserContext("products.json"));
    expect(document.blocks).toEqual([
      { kind: "paragraph", text: "id: 1\nname: Lamp\ntags: light, desk\nsupplier.name: Harbour Supplies\nsupplier.country: DE" },
      { kind: "paragraph", text: "id: 2\nname: Desk\ntags: []\nsupplier.name: 北方家具\nsupplier.country: CN\ndiscontinued: true" },
    ]);
  });

  it("keeps the plain keys of a top-level object together and gives each nested one its own paragraph", async () => {
    const data = Buffer.from(JSON.stringify({ name: "cairn", version: "1.0", servers: [{ host: "a", port: 80 }], private: true }));
    expect((await jsonParser.parse(data, parserContext("package.json"))).blocks).toEqual([
      { kind: "paragraph", text: "name: cairn\nversion: 1.0" },
      { kind: "paragraph", text: "servers[0].host: a\nservers[0].port: 80" },
      { kind: "paragraph", text: "private: true" },
    ]);
  });

  it("reads JSON Lines line by line", async () => {
    const data = Buffer.from('{"q": "What is RAG?", "a": "Retrieval augmented generation"}\n\n{"q": "Who cites?", "a": null}\n');
    expect((await jsonParser.parse(data, parserContext("faq.jsonl"))).blocks).toEqual([
      { kind: "paragraph", text: "q: What is RAG?\na: Retrieval augmented generation" },
      { kind: "paragraph", text: "q: Who cites?\na: null" },
    ]);
  });

  it("refuses invalid JSON, naming the line of a JSON Lines file", async () => {
    await expect(jsonParser.parse(Buffer.from("{not json"), parserContext("bad.json"))).rejects.toThrow(ParseError);
    await expect(jsonParser.parse(Buffer.from("{not json"), parserContext("bad.json"))).rejects.toThrow(/^The file is not valid JSON: /);
    await expect(jsonParser.parse(Buffer.from('{"a": 1}\n{oops\n'), parserContext("bad.ldjson"))).rejects.toThrow(/^Line 2 is not valid JSON: /);
  });
});

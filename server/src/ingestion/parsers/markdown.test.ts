import { parserContext, sampleMarkdown } from "../testing/sample-files";
import { markdownParser } from "./markdown";

describe("the Markdown parser", () => {
  it("reads headings, paragraphs without markup, nested and numbered lists, fenced code, tables and quotes", async () => {
    const document = await markdownParser.parse(await sampleMarkdown(), parserContext("guide.md"));
    expect(document.blocks).toEqual([
      { kind: "heading", level: 1, text: "Deployment guide" },
      { kind: "paragraph", text: "Cairn runs as one process with an embedded database." },
      { kind: "heading", level: 2, text: "Requirements" },
      { kind: "listItem", depth: 0, text: "Node.js 20" },
      { kind: "listItem", depth: 1, text: "npm 11" },
      { kind: "listItem", depth: 0, text: "2 GB of memory" },
      { kind: "listItem", depth: 0, text: "1. Install" },
      { kind: "listItem", depth: 0, text: "2. Configure" },
      { kind: "code", language: "sh", text: "npm start" },
      { kind: "table", header: ["Variable", "Meaning"], rows: [["DATA_DIR", "Where files are kept"], ["PORT", "HTTP port"]] },
      { kind: "paragraph", text: "Back up the data directory before upgrading." },
    ]);
  });

  it("leaves out the import and export lines of MDX and reads its components' text", async () => {
    const mdx = Buffer.from('import { Chart } from "./chart";\nexport const meta = { title: "Stats" };\n\n# Stats\n\n<Callout>Numbers are weekly.</Callout>\n');
    const document = await markdownParser.parse(mdx, parserContext("stats.mdx"));
    expect(document.blocks).toEqual([
      { kind: "heading", level: 1, text: "Stats" },
      { kind: "paragraph", text: "Numbers are weekly." },
    ]);
  });
});

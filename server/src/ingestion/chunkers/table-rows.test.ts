import ExcelJS from "exceljs";
import { BuiltinExtractiveChat } from "../../models/builtin/extractive-chat";
import { countTokens } from "../../models/tokens";
import { csvParser } from "../parsers/csv";
import { xlsxParser } from "../parsers/xlsx";
import { parserContext } from "../testing/sample-files";
import { naiveMethod } from "./naive";
import { context } from "./test-support";

/**
 * Table rows under the General method, as RAGFlow's naive chunker makes them: each row one
 * "column: value; column: value" line carrying its column names, lines merged up to `chunk_token_num`,
 * never a row cut in two; a table under the budget is one chunk, a larger one several.
 */

const HEADER = ["sku", "product", "price", "stock"];
const PRODUCTS = ["Glacier 3-season tent", "Fjord sleeping bag", "Trail stove", "Summit backpack", "Aurora headlamp", "Tundra boots", "Ridge trekking poles", "Delta water filter", "Polar down jacket", "Coast rain shell"];
const ROWS = PRODUCTS.map((product, i) => [`SKU-${100 + i}`, product, `${(i + 1) * 500 - 1} NOK`, String(3 * i + 2)]);
const csv = Buffer.from([HEADER, ...ROWS].map((row) => row.join(",")).join("\n"));

async function chunksOf(data: Buffer, fileName: string, chunkTokens?: number) {
  const parser = fileName.endsWith(".csv") ? csvParser : xlsxParser;
  const parsed = await parser.parse(data, parserContext(fileName));
  const config = chunkTokens ? { chunk_token_num: chunkTokens } : {};
  return (await naiveMethod.chunk(parsed, context(config, { fileName }))).chunks.map((c) => c.text);
}

const rowLine = (row: string[]) => HEADER.map((name, i) => `${name}: ${row[i]}`).join("; ");

describe("table rows under the General method", () => {
  it("a 10-row CSV within the budget is one chunk of row lines, each with its column names", async () => {
    const chunks = await chunksOf(csv, "products.csv");
    expect(chunks).toEqual([ROWS.map(rowLine).join("\n")]);
  });

  it("rows beyond the budget go to further chunks, whole rows each within it, never the table in one", async () => {
    const chunks = await chunksOf(csv, "products.csv", 64);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(countTokens(chunk)).toBeLessThanOrEqual(64);
      for (const line of chunk.split("\n")) expect(line).toMatch(/^sku: SKU-\d+; product: [^;]+; price: \d+ NOK; stock: \d+$/);
    }
    expect(chunks.join("\n")).toBe(ROWS.map(rowLine).join("\n"));
  });

  it("an XLSX sheet is chunked the same way, its sheet name before each group", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Products");
    for (const row of [HEADER, ...ROWS]) sheet.addRow(row);
    const chunks = await chunksOf(Buffer.from(await workbook.xlsx.writeBuffer()), "products.xlsx", 64);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.split("\n")[0]).toBe("Products");
  });

  it("the built-in model answers from a row's chunk with a sentence, not the row's fields", async () => {
    const [chunk] = await chunksOf(csv, "products.csv");
    const system = `Here is the knowledge base:\nID: 0\n├── Title: products.csv\n└── Content:\n${chunk}\nThe above is the knowledge base.`;
    let text = "";
    for await (const event of new BuiltinExtractiveChat(0).stream([
      { role: "system", content: system },
      { role: "user", content: "How much does the Glacier 3-season tent cost?" },
    ])) {
      if (event.type === "delta") text += event.text;
    }
    expect(text).toBe("The Glacier 3-season tent costs 499 NOK. [ID:0]");
  });
});

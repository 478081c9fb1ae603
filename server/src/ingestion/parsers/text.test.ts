import { parserContext } from "../testing/sample-files";
import { codeParser } from "./code";
import { textParser } from "./text";

const SIMPLIFIED = "这是我们的文档，检索增强生成会找到相关的内容。";
const TRADITIONAL = "這是我們的文件，檢索增強生成會找到相關的內容。";

describe("the text and code parsers", () => {
  it("split plain text into paragraphs at blank lines, keeping the line breaks inside one", async () => {
    const document = await textParser.parse(Buffer.from("First line\r\nstill first\r\n\r\n  \r\nSecond paragraph\n"), parserContext("notes.txt"));
    expect(document.blocks).toEqual([
      { kind: "paragraph", text: "First line\nstill first" },
      { kind: "paragraph", text: "Second paragraph" },
    ]);
  });

  it("decode UTF-8 and UTF-16 with a byte order mark, and GB18030 or Big5 when the bytes are not UTF-8", async () => {
    const read = async (data: Buffer) => (await textParser.parse(data, parserContext("a.txt"))).blocks.map((block) => ("text" in block ? block.text : ""));
    expect(await read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("héllo")]))).toEqual(["héllo"]);
    expect(await read(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("检索 RAG", "utf16le")]))).toEqual(["检索 RAG"]);
    expect(await read(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("检索", "utf16le").swap16()]))).toEqual(["检索"]);
    expect(await read(Buffer.from("d5e2cac7ced2c3c7b5c4cec4b5b5a3acbceccbf7d4f6c7bfc9fab3c9bbe1d5d2b5bdcfe0b9d8b5c4c4dac8dda1a3", "hex"))).toEqual([SIMPLIFIED]);
    expect(await read(Buffer.from("b36fac4fa7daadccaabaa4e5a5f3a141c0cbafc1bc57b16aa5cda6a8b77ca7e4a8ecacdbc3f6aabaa4baae65a143", "hex"))).toEqual([TRADITIONAL]);
  });

  it("give source code one block per top-level section, in the file's language", async () => {
    const source = "import os\n\n\ndef first():\n    a = 1\n\n    return a\n\nclass Second:\n    pass\n";
    const document = await codeParser.parse(Buffer.from(source), parserContext("tool.py"));
    expect(document.blocks).toEqual([
      { kind: "code", language: "python", text: "import os" },
      { kind: "code", language: "python", text: "def first():\n    a = 1\n\n    return a" },
      { kind: "code", language: "python", text: "class Second:\n    pass" },
    ]);
    const yaml = await codeParser.parse(Buffer.from("name: cairn\nport: 80\n"), parserContext("config.YML"));
    expect(yaml.blocks).toEqual([{ kind: "code", language: "yaml", text: "name: cairn\nport: 80" }]);
  });
});

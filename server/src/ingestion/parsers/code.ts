import { fileExtension } from "../file-types";
import type { FileParser } from "../types";
import { decodeText } from "./plain-text";

const LANGUAGES: Record<string, string> = {
  py: "python", js: "javascript", ts: "typescript", java: "java", c: "c", h: "c", cpp: "cpp", php: "php", go: "go", sh: "bash",
  cs: "csharp", kt: "kotlin", sql: "sql", yml: "yaml", xml: "xml", ini: "ini",
};

/** Source, configuration and query files: one code block per top-level section (blank lines followed by an unindented line). */
export const codeParser: FileParser = {
  name: "code",
  extensions: Object.keys(LANGUAGES),
  async parse(data, context) {
    const language = LANGUAGES[fileExtension(context.fileName)];
    const sections = decodeText(data)
      .replace(/\r\n?/g, "\n")
      .split(/\n(?:[ \t]*\n)+(?=\S)/)
      .map((section) => section.replace(/^(?:[ \t]*\n)+/, "").trimEnd())
      .filter((section) => section !== "");
    return { blocks: sections.map((text) => ({ kind: "code", language, text })), notes: [] };
  },
};

import { fileExtension } from "../../file-types";
import { PreviewKind } from "../preview";
import { PREVIEW_LIMITS } from "../limits";
import { cut, textOf, unsupported, type PreviewMaker } from "../maker";

/** highlight.js's name of the language of each text type the parsers read; plain text has none. */
const LANGUAGES: Record<string, string | null> = {
  txt: null, log: null,
  json: "json", jsonl: "json", ldjson: "json",
  py: "python", js: "javascript", ts: "typescript", java: "java", c: "c", h: "c", cpp: "cpp", php: "php", go: "go", sh: "bash",
  cs: "csharp", kt: "kotlin", sql: "sql", yml: "yaml", yaml: "yaml", xml: "xml", ini: "ini",
  // a web page's source: shown, never rendered
  html: "xml", htm: "xml",
};

/** Text and source code, with the language the client highlights it in. */
export const textPreview: PreviewMaker = {
  name: "text",
  extensions: Object.keys(LANGUAGES),
  async make(bytes, fileName) {
    const whole = textOf(bytes);
    if (whole === null) return unsupported(fileName, "preview.reason.notText");
    const { text, truncated } = cut(whole, PREVIEW_LIMITS.textCharacters);
    return { kind: PreviewKind.text, fileName, text, language: LANGUAGES[fileExtension(fileName)] ?? null, truncated };
  },
};

import type { MarkedToken, Token, Tokens } from "marked";
import { fileExtension } from "../file-types";
import type { Block, FileParser } from "../types";
import { htmlBlocks } from "./html-blocks";
import { importEsm } from "./load-esm";
import { decodeText } from "./plain-text";

type Marked = typeof import("marked");

/** Plain text of inline tokens: emphasis and links keep their words, images their alt text, inline HTML tags go. */
function inlineText(tokens: Token[]): string {
  return tokens
    .map((generic) => {
      const token = generic as MarkedToken;
      switch (token.type) {
        case "br":
          return "\n";
        case "html":
          return "";
        case "codespan":
        case "escape":
        case "image":
          return token.text;
        default:
          return "tokens" in token && token.tokens ? inlineText(token.tokens) : "text" in token ? String(token.text) : "";
      }
    })
    .join("");
}

function listBlocks(list: Tokens.List, depth: number, blocks: Block[]): void {
  list.items.forEach((item, index) => {
    const marker = list.ordered ? `${Number(list.start || 1) + index}. ` : "";
    const text = item.tokens
      .filter((token) => token.type !== "list")
      .map((token) => inlineText((token as Tokens.Generic).tokens ?? []).trim() || String((token as Tokens.Generic).text ?? "").trim())
      .filter(Boolean)
      .join("\n");
    if (text) blocks.push({ kind: "listItem", depth, text: marker + text });
    for (const nested of item.tokens) if (nested.type === "list") listBlocks(nested as Tokens.List, depth + 1, blocks);
  });
}

function blocksOf(tokens: Token[], blocks: Block[]): Block[] {
  for (const generic of tokens) {
    const token = generic as MarkedToken;
    switch (token.type) {
      case "heading":
        blocks.push({ kind: "heading", level: token.depth, text: inlineText(token.tokens).trim() });
        break;
      case "paragraph":
      case "text": {
        const text = inlineText(token.tokens ?? []).trim();
        if (text) blocks.push({ kind: "paragraph", text });
        break;
      }
      case "list":
        listBlocks(token, 0, blocks);
        break;
      case "code":
        blocks.push({ kind: "code", language: token.lang?.split(/\s/)[0] || undefined, text: token.text });
        break;
      case "table":
        blocks.push({
          kind: "table",
          header: token.header.map((cell) => inlineText(cell.tokens).trim()),
          rows: token.rows.map((row) => row.map((cell) => inlineText(cell.tokens).trim())),
        });
        break;
      case "blockquote":
        blocksOf(token.tokens, blocks);
        break;
      case "html":
        for (const block of htmlBlocks(token.text).blocks) blocks.push(block);
        break;
    }
  }
  return blocks;
}

export const markdownParser: FileParser = {
  name: "markdown",
  extensions: ["md", "mdx"],
  async parse(data, context) {
    const { lexer } = await importEsm<Marked>("marked");
    let source = decodeText(data);
    // MDX module lines (imports, exported values) are code for the renderer, not text of the page
    if (fileExtension(context.fileName) === "mdx") source = source.replace(/^(?:import|export)\s.*$/gm, "");
    return { blocks: blocksOf(lexer(source), []), notes: [] };
  },
};

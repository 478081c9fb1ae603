import type { ChildNode, Element } from "domhandler";
import { isTag, isText } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";
import type { Block, TableBlock } from "../types";

/** Elements whose content is not part of the document's text. */
const SKIPPED = new Set(["script", "style", "nav", "noscript", "template", "head", "svg", "iframe", "object"]);

/** Elements that end the running text before and after them. */
const BLOCK_ELEMENTS = new Set([
  "html", "body", "main", "article", "section", "header", "footer", "aside", "div", "p", "blockquote", "figure", "figcaption",
  "address", "center", "details", "summary", "form", "fieldset", "dl", "dt", "dd", "hr", "li",
]);

type TextKind = { kind: "paragraph" } | { kind: "heading"; level: number } | { kind: "listItem"; depth: number; marker: string };

const DATA_URI = /^data:(image\/[\w.+-]+);base64,(.*)$/s;

/** Collapses HTML whitespace, keeping the line breaks that <br> made ("\n"). */
function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\r\f]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

function textOf(node: ChildNode): string {
  if (isText(node)) return node.data.replace(/\s+/g, " ");
  if (!isTag(node) || SKIPPED.has(node.name)) return "";
  if (node.name === "br") return "\n";
  const inner = node.children.map(textOf).join("");
  return BLOCK_ELEMENTS.has(node.name) || node.name === "td" || node.name === "th" ? ` ${inner} ` : inner;
}

function codeLanguage(pre: Element): string | undefined {
  const code = pre.children.find((child): child is Element => isTag(child) && child.name === "code");
  const classes = `${pre.attribs.class ?? ""} ${code?.attribs.class ?? ""}`;
  return /(?:^|\s)(?:language|lang)-([\w+#-]+)/.exec(classes)?.[1];
}

/** The rows of this table, not of tables nested in its cells. */
function tableRows(table: Element): { cells: string[]; inHead: boolean; allHeaderCells: boolean }[] {
  const rows: { cells: string[]; inHead: boolean; allHeaderCells: boolean }[] = [];
  const visit = (parent: Element, inHead: boolean) => {
    for (const child of parent.children) {
      if (!isTag(child)) continue;
      if (child.name === "thead" || child.name === "tbody" || child.name === "tfoot") visit(child, child.name === "thead");
      else if (child.name === "tr") {
        const cells = child.children.filter((cell): cell is Element => isTag(cell) && (cell.name === "td" || cell.name === "th"));
        rows.push({ cells: cells.map((cell) => tidy(textOf(cell))), inHead, allHeaderCells: cells.length > 0 && cells.every((cell) => cell.name === "th") });
      }
    }
  };
  visit(table, false);
  return rows;
}

function tableBlock(table: Element): TableBlock | null {
  const rows = tableRows(table).filter((row) => row.cells.some((cell) => cell !== ""));
  if (rows.length === 0) return null;
  const caption = table.children.find((child): child is Element => isTag(child) && child.name === "caption");
  const headerRows = rows[0].inHead || rows[0].allHeaderCells ? rows.filter((row, index) => index === 0 || row.inHead) : [];
  const width = rows.reduce((widest, row) => Math.max(widest, row.cells.length), 0);
  const padded = (cells: string[]) => Array.from({ length: width }, (_, column) => cells[column] ?? "");
  return {
    kind: "table",
    caption: caption ? tidy(textOf(caption)) || undefined : undefined,
    header: headerRows.length ? padded(headerRows.map((row) => row.cells).reduce((names, cells) => names.map((name, column) => [name, cells[column]].filter(Boolean).join(" ")))) : [],
    rows: rows.slice(headerRows.length).map((row) => padded(row.cells)),
  };
}

/** Walks the DOM in document order, gathering running text until a block element ends it. */
class BlockCollector {
  readonly blocks: Block[] = [];
  private text = "";
  private kind: TextKind = { kind: "paragraph" };

  visitAll(nodes: ChildNode[], listDepth: number): void {
    for (const node of nodes) this.visit(node, listDepth);
  }

  private visit(node: ChildNode, listDepth: number): void {
    if (isText(node)) {
      this.text += node.data.replace(/\s+/g, " ");
      return;
    }
    if (!isTag(node) || SKIPPED.has(node.name)) return;
    const name = node.name;
    const heading = /^h([1-6])$/.exec(name);
    if (heading) this.within({ kind: "heading", level: Number(heading[1]) }, () => this.visitAll(node.children, listDepth));
    else if (name === "ul" || name === "ol") this.visitList(node, listDepth);
    else if (name === "pre") {
      this.flush();
      const text = DomUtils.textContent(node).replace(/^\n/, "").trimEnd();
      if (text.trim()) this.blocks.push({ kind: "code", language: codeLanguage(node), text });
    } else if (name === "table") {
      this.flush();
      const table = tableBlock(node);
      if (table) this.blocks.push(table);
    } else if (name === "img") {
      const image = DATA_URI.exec(node.attribs.src ?? "");
      if (!image) return;
      this.flush();
      this.blocks.push({ kind: "image", image: { mimeType: image[1], data: Buffer.from(image[2], "base64") }, text: "", caption: node.attribs.alt?.trim() || undefined });
    } else if (name === "br") this.text += "\n";
    else if (BLOCK_ELEMENTS.has(name)) {
      // keeps the current kind: a <p> inside a list item (Word's lists, via mammoth) is that item's text
      this.flush();
      this.visitAll(node.children, listDepth);
      this.flush();
    } else this.visitAll(node.children, listDepth);
  }

  private visitList(list: Element, listDepth: number): void {
    let number = Number(list.attribs.start ?? 1);
    for (const item of list.children) {
      if (!isTag(item)) continue;
      if (item.name !== "li") {
        this.visit(item, listDepth);
        continue;
      }
      const marker = list.name === "ol" ? `${number}. ` : "";
      number += 1;
      this.within({ kind: "listItem", depth: listDepth, marker }, () => this.visitAll(item.children, listDepth + 1));
    }
  }

  private within(kind: TextKind, visitChildren: () => void): void {
    const outer = this.kind;
    this.flush();
    this.kind = kind;
    visitChildren();
    this.flush();
    this.kind = outer;
  }

  flush(): void {
    const text = tidy(this.text);
    this.text = "";
    if (!text) return;
    const kind = this.kind;
    if (kind.kind === "heading") this.blocks.push({ kind: "heading", level: kind.level, text });
    else if (kind.kind === "listItem") {
      this.blocks.push({ kind: "listItem", depth: kind.depth, text: kind.marker + text });
      // text after a nested list belongs to the same item, without its number again
      this.kind = { ...kind, marker: "" };
    } else this.blocks.push({ kind: "paragraph", text });
  }
}

/** Headings, paragraphs, list items, code, tables and embedded (data: URI) images of an HTML document, in reading order. */
export function htmlBlocks(html: string): { title?: string; blocks: Block[] } {
  const document = parseDocument(html);
  const title = DomUtils.findOne((element) => element.name === "title", document.children);
  const collector = new BlockCollector();
  collector.visitAll(document.children, 0);
  collector.flush();
  return { title: title ? tidy(DomUtils.textContent(title)) || undefined : undefined, blocks: collector.blocks };
}

import { logMessage } from "../parse-log";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import JSZip from "jszip";
import type { Block, FileParser } from "../types";
import { ParseError } from "../types";
import { checkZipContainer } from "./zip-limits";

/** fast-xml-parser's ordered form: `{ "a:p": [children], ":@": {attributes} }`, or `{ "#text": "…" }`. */
type XmlNode = Record<string, unknown>;

const xml = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: "", parseTagValue: false, parseAttributeValue: false, trimValues: false });

const nameOf = (node: XmlNode) => Object.keys(node).find((key) => key !== ":@") ?? "";
const childrenOf = (node: XmlNode | undefined): XmlNode[] => (node && Array.isArray(node[nameOf(node)]) ? (node[nameOf(node)] as XmlNode[]) : []);
const attributesOf = (node: XmlNode | undefined): Record<string, string> => (node?.[":@"] as Record<string, string> | undefined) ?? {};
const child = (node: XmlNode | undefined, name: string) => childrenOf(node).find((item) => nameOf(item) === name);
const childrenNamed = (node: XmlNode | undefined, name: string) => childrenOf(node).filter((item) => nameOf(item) === name);

function descendants(nodes: XmlNode[], name: string): XmlNode[] {
  return nodes.flatMap((node) => (nameOf(node) === name ? [node] : descendants(childrenOf(node), name)));
}

function textOf(nodes: XmlNode[]): string {
  return nodes.map((node) => (typeof node["#text"] === "string" ? node["#text"] : textOf(childrenOf(node)))).join("");
}

interface TextParagraph {
  text: string;
  level: number;
  /** undefined: the paragraph does not say, and follows its placeholder. */
  bullet?: boolean;
}

function paragraphsOf(textBody: XmlNode | undefined): TextParagraph[] {
  return childrenNamed(textBody, "a:p").flatMap((paragraph) => {
    const properties = child(paragraph, "a:pPr");
    const text = childrenOf(paragraph)
      .map((run) => {
        const name = nameOf(run);
        if (name === "a:br") return "\n";
        return name === "a:r" || name === "a:fld" ? textOf(childrenNamed(run, "a:t")) : "";
      })
      .join("")
      .trim();
    if (!text) return [];
    const bullet = child(properties, "a:buNone") ? false : child(properties, "a:buChar") || child(properties, "a:buAutoNum") ? true : undefined;
    return [{ text, level: Number(attributesOf(properties).lvl ?? 0), bullet }];
  });
}

function placeholderOf(shape: XmlNode): { type: string } | undefined {
  const placeholder = child(child(child(shape, "p:nvSpPr"), "p:nvPr"), "p:ph");
  // a placeholder without a type is a content ("obj") placeholder
  return placeholder ? { type: attributesOf(placeholder).type ?? "obj" } : undefined;
}

const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);
/** Filled in by the master on every slide: not the slide's own text. */
const BOILERPLATE_PLACEHOLDERS = new Set(["sldNum", "dt", "ftr", "hdr", "sldImg"]);
/** Placeholders whose paragraphs are bulleted unless they say otherwise. */
const LIST_PLACEHOLDERS = new Set(["body", "obj"]);

function tableOf(frame: XmlNode, page: number): Block | null {
  const table = descendants([frame], "a:tbl")[0];
  if (!table) return null;
  const rows = childrenNamed(table, "a:tr").map((row) =>
    childrenNamed(row, "a:tc").map((cell) =>
      paragraphsOf(child(cell, "a:txBody"))
        .map((paragraph) => paragraph.text)
        .join("\n"),
    ),
  );
  if (rows.length === 0) return null;
  const hasHeader = attributesOf(child(table, "a:tblPr")).firstRow === "1";
  return { kind: "table", page, header: hasHeader ? rows[0] : [], rows: hasHeader ? rows.slice(1) : rows };
}

interface Slide {
  title?: string;
  blocks: Block[];
}

function readSlide(document: XmlNode[], page: number): Slide {
  const slide: Slide = { blocks: [] };
  const visit = (shapes: XmlNode[]) => {
    for (const shape of shapes) {
      const name = nameOf(shape);
      if (name === "p:grpSp") visit(childrenOf(shape));
      else if (name === "p:graphicFrame") {
        const table = tableOf(shape, page);
        if (table) slide.blocks.push(table);
      } else if (name === "p:sp") {
        const placeholder = placeholderOf(shape);
        if (placeholder && BOILERPLATE_PLACEHOLDERS.has(placeholder.type)) continue;
        const paragraphs = paragraphsOf(child(shape, "p:txBody"));
        if (placeholder && TITLE_PLACEHOLDERS.has(placeholder.type) && slide.title === undefined) {
          slide.title = paragraphs.map((paragraph) => paragraph.text).join(" ") || undefined;
          continue;
        }
        for (const { text, level, bullet } of paragraphs) {
          const listed = bullet ?? (placeholder !== undefined && LIST_PLACEHOLDERS.has(placeholder.type));
          slide.blocks.push(listed ? { kind: "listItem", depth: level, text, page } : { kind: "paragraph", text, page });
        }
      }
    }
  };
  visit(childrenOf(descendants(document, "p:spTree")[0]));
  return slide;
}

function notesOf(document: XmlNode[]): string {
  return descendants(document, "p:sp")
    .filter((shape) => placeholderOf(shape)?.type === "body")
    .flatMap((shape) => paragraphsOf(child(shape, "p:txBody")).map((paragraph) => paragraph.text))
    .join("\n");
}

/** Relationship id → part path inside the package, for the part at `partPath`. */
async function relationships(zip: JSZip, partPath: string): Promise<Map<string, { type: string; target: string }>> {
  const relsPath = path.posix.join(path.posix.dirname(partPath), "_rels", `${path.posix.basename(partPath)}.rels`);
  const source = await zip.file(relsPath)?.async("string");
  const found = new Map<string, { type: string; target: string }>();
  for (const relation of descendants(source ? xml.parse(source) : [], "Relationship")) {
    const { Id, Type, Target, TargetMode } = attributesOf(relation);
    if (TargetMode === "External") continue;
    const target = Target.startsWith("/") ? Target.slice(1) : path.posix.normalize(path.posix.join(path.posix.dirname(partPath), Target));
    found.set(Id, { type: Type, target });
  }
  return found;
}

async function readPart(zip: JSZip, partPath: string): Promise<XmlNode[]> {
  const source = await zip.file(partPath)?.async("string");
  if (source === undefined) throw ParseError.because("errors.parsing.pptxDamaged", { part: partPath });
  return xml.parse(source) as XmlNode[];
}

/** PowerPoint presentations: per slide (in presentation order) a page break with its title, its text and tables, then its speaker notes. */
export const pptxParser: FileParser = {
  name: "pptx",
  extensions: ["pptx"],
  async parse(data, context) {
    await checkZipContainer(data);
    let zip: JSZip;
    try {
      zip = await JSZip.loadAsync(data);
    } catch {
      throw ParseError.because("errors.parsing.pptxInvalid");
    }
    if (!zip.file("ppt/presentation.xml")) throw ParseError.because("errors.parsing.pptxInvalid");
    const presentation = await readPart(zip, "ppt/presentation.xml");
    const presentationRelations = await relationships(zip, "ppt/presentation.xml");
    const slidePaths = descendants(presentation, "p:sldId").flatMap((slideId) => {
      const relation = presentationRelations.get(attributesOf(slideId)["r:id"]);
      return relation ? [relation.target] : [];
    });
    const blocks: Block[] = [];
    for (const [index, slidePath] of slidePaths.entries()) {
      context.signal.throwIfAborted();
      const page = index + 1;
      const slide = readSlide(await readPart(zip, slidePath), page);
      blocks.push({ kind: "pageBreak", page, title: slide.title }, ...slide.blocks);
      const notesPath = [...(await relationships(zip, slidePath)).values()].find((relation) => relation.type.endsWith("/notesSlide"))?.target;
      const notes = notesPath && zip.file(notesPath) ? notesOf(await readPart(zip, notesPath)) : "";
      if (notes) blocks.push({ kind: "paragraph", text: notes, page });
      context.progress(page / slidePaths.length, logMessage("parseLog.slide", { slide: page }));
    }
    return { blocks, pageCount: slidePaths.length, notes: [] };
  },
};

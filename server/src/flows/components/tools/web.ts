import { htmlBlocks } from "../../../ingestion/parsers/html-blocks";
import { decodeText } from "../../../ingestion/parsers/plain-text";
import type { Block } from "../../../ingestion/types";
import { DomainError } from "../../../platform/errors";
import { OutboundRefused, readLimited, type OutboundRequest } from "../../../platform/outbound";
import type { ParamSpec } from "../../../platform/param-spec";
import type { ComponentContext } from "../../component";

/**
 * What the web tools (Invoke, Crawler) share: one request through the run's outbound guard (`ports.fetch`)
 * with a time-out and a size cap, its failures told as translated component errors, and a page's HTML read
 * as text or markdown by ingestion's HTML parser.
 */

/** The most of an answer a web tool reads: more would not fit any model's context anyway. */
export const WEB_TOOL_MAX_BYTES = 5 * 1024 * 1024;

const requestError = (kind: "BAD_REQUEST" | "OUTSIDE_SERVICE", name: string, params?: Record<string, unknown>) =>
  new DomainError(kind, `flow.errors.request.${name}`, params);

/** What the component reads: its input variables when it has some, else the default input. */
export function inputText(context: ComponentContext): string {
  return context.inputs.length > 0 ? context.inputs.map((input) => input.content).join("\n") : context.input;
}

/**
 * RAGFlow's tools take a proxy; a proxy would carry the request past the outbound guard (it connects, not the
 * server), so Cairn refuses one. An empty value or a bare scheme ("http://", the form's placeholder) is none.
 */
export function refuseProxy(proxy: unknown): void {
  if (typeof proxy === "string" && proxy.replace(/https?:?\/?\/?/i, "").trim() !== "") throw requestError("BAD_REQUEST", "proxyUnsupported");
}

/** RAGFlow's `proxy` parameter, kept so that its flows import; any proxy is refused when saved and when run. */
export const PROXY: ParamSpec = {
  key: "proxy",
  type: "string",
  label: "flow.params.proxy",
  help: "flow.help.proxy",
  default: "",
  check: (value) => {
    try {
      refuseProxy(value);
      return [];
    } catch (error) {
      return [{ code: "format", messageKey: (error as DomainError).messageKey }];
    }
  },
};

export interface WebAnswer {
  contentType: string;
  body: Buffer;
}

/**
 * One request through the run's outbound guard, read whole (up to the cap) within `timeoutMs`. A refused
 * address, a time-out, an unreachable server, an over-large answer or a status other than 2xx is a
 * translated component error; a cancelled run stays a cancellation.
 */
export async function webRequest(context: ComponentContext, url: string, request: OutboundRequest, timeoutMs: number): Promise<WebAnswer> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([context.signal, timeout]);
  const failure = (error: unknown): unknown => {
    if (context.signal.aborted) return context.signal.reason;
    if (timeout.aborted) return requestError("OUTSIDE_SERVICE", "timeout", { url, seconds: timeoutMs / 1000 });
    if (error instanceof DomainError) return error;
    return requestError("OUTSIDE_SERVICE", "unreachable", { url });
  };
  let response: Response;
  try {
    response = await context.ports.fetch(url, { ...request, signal });
  } catch (error) {
    if (error instanceof OutboundRefused && error.reason === "url") throw requestError("BAD_REQUEST", "invalidUrl", { url });
    throw failure(error);
  }
  if (response.status < 200 || response.status >= 300) {
    await response.body?.cancel().catch(() => undefined);
    throw requestError("OUTSIDE_SERVICE", "status", { url, status: response.status });
  }
  try {
    const body = await readLimited(response, WEB_TOOL_MAX_BYTES, () => requestError("OUTSIDE_SERVICE", "tooLarge", { url, megabytes: WEB_TOOL_MAX_BYTES / 1024 / 1024 }));
    return { contentType: response.headers.get("content-type") ?? "", body };
  } catch (error) {
    throw failure(error);
  }
}

/** The answer as text, in the charset it declares (UTF-8 and BOMs otherwise, as ingestion reads files). */
export function answerText(answer: WebAnswer): string {
  const charset = /charset=["']?([\w-]+)/i.exec(answer.contentType)?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(answer.body);
    } catch {
      // an unknown charset: read it as ingestion would
    }
  }
  return decodeText(answer.body);
}

const escapeCell = (cell: string) => cell.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** A markdown table; rows padded to the header's width. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(escapeCell).join(" | ")} |`;
  const width = Math.max(header.length, ...rows.map((row) => row.length));
  const pad = (cells: string[]) => Array.from({ length: width }, (_, i) => cells[i] ?? "");
  return [line(pad(header)), line(Array<string>(width).fill("---")), ...rows.map((row) => line(pad(row)))].join("\n");
}

function blockMarkdown(block: Block): string {
  switch (block.kind) {
    case "heading":
      return `${"#".repeat(block.level)} ${block.text}`;
    case "paragraph":
      return block.text;
    case "listItem":
      // an ordered item carries its number; an unordered one has no marker of its own
      return `${"  ".repeat(block.depth)}${/^\d+\. /.test(block.text) ? "" : "- "}${block.text}`;
    case "code":
      return `\`\`\`${block.language ?? ""}\n${block.text}\n\`\`\``;
    case "table": {
      const table = block.header.length > 0 ? markdownTable(block.header, block.rows) : markdownTable(block.rows[0] ?? [], block.rows.slice(1));
      return block.caption ? `${block.caption}\n\n${table}` : table;
    }
    case "image":
      return block.caption ?? "";
    case "pageBreak":
      return "";
  }
}

function blockPlainText(block: Block): string {
  switch (block.kind) {
    case "table":
      return [block.caption, ...[block.header, ...block.rows].filter((row) => row.length > 0).map((row) => row.join("\t"))].filter(Boolean).join("\n");
    case "image":
      return block.caption ?? "";
    case "pageBreak":
      return "";
    default:
      return block.text;
  }
}

/** A page's readable content as markdown (headings, lists, code, tables), by ingestion's HTML parser. */
export function htmlToMarkdown(html: string): string {
  const { title, blocks } = htmlBlocks(html);
  let markdown = title && !blocks.some((block) => block.kind === "heading") ? `# ${title}` : "";
  let previous: Block["kind"] | undefined;
  for (const block of blocks) {
    const part = blockMarkdown(block);
    if (part === "") continue;
    // the items of one list stay together; other blocks are paragraphs apart
    markdown += markdown === "" ? part : `${previous === "listItem" && block.kind === "listItem" ? "\n" : "\n\n"}${part}`;
    previous = block.kind;
  }
  return markdown;
}

/** A page's readable content as plain text, one block a line (RAGFlow's HtmlParser sections, joined). */
export function htmlToText(html: string): string {
  return htmlBlocks(html)
    .blocks.map(blockPlainText)
    .filter((part) => part !== "")
    .join("\n");
}

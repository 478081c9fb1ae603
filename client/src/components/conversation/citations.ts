/** RAGFlow's inline citation: `[ID:n]`, n indexing the answer's reference chunks from 0. */
export const CITATION = /\[ID:\s*(\d+)\]/g;

interface MarkdownNode {
  type: string;
  value?: string;
  children?: MarkdownNode[];
  data?: { hName?: string; hProperties?: Record<string, unknown> };
}

function split(text: string): MarkdownNode[] {
  const parts: MarkdownNode[] = [];
  let last = 0;
  for (const match of text.matchAll(CITATION)) {
    const at = match.index ?? 0;
    if (at > last) parts.push({ type: "text", value: text.slice(last, at) });
    // A node remark-rehype turns into <sup data-citation="n">; raw HTML from an answer never becomes one (it is shown as text).
    parts.push({ type: "citation", data: { hName: "sup", hProperties: { dataCitation: match[1] } } });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ type: "text", value: text.slice(last) });
  return parts;
}

function visit(node: MarkdownNode): void {
  if (!node.children) return;
  const children: MarkdownNode[] = [];
  for (const child of node.children) {
    // Code keeps its text as written: its nodes are `code`/`inlineCode`, never `text`.
    if (child.type === "text" && child.value && CITATION.test(child.value)) {
      CITATION.lastIndex = 0;
      children.push(...split(child.value));
    } else {
      visit(child);
      children.push(child);
    }
  }
  node.children = children;
}

/** A remark plugin: citation markers in the answer's text become citation nodes. */
export function remarkCitations() {
  return (tree: MarkdownNode) => visit(tree);
}

/** The answer without its citation markers, for reading aloud or copying. */
export function withoutCitations(text: string): string {
  return text.replace(CITATION, "");
}

import { PreviewKind } from "../preview";
import { PREVIEW_LIMITS } from "../limits";
import { cut, textOf, unsupported, type PreviewMaker } from "../maker";

/** Markdown goes to the client as Markdown, which renders it without raw HTML. */
export const markdownPreview: PreviewMaker = {
  name: "markdown",
  extensions: ["md", "mdx", "markdown"],
  async make(bytes, fileName) {
    const text = textOf(bytes);
    if (text === null) return unsupported(fileName, "preview.reason.notText");
    const { text: markdown, truncated } = cut(text, PREVIEW_LIMITS.textCharacters);
    return { kind: PreviewKind.markdown, fileName, markdown, truncated };
  },
};

import { Box } from "@chakra-ui/react";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { safeLinks, safeUrls } from "../safeMarkdown";
import { documentStyles } from "./documentStyles";

const safeUrl = safeUrls({ inPage: true });

/** Markdown rendered safely: GitHub's flavour, raw HTML shown as text (react-markdown without rehype-raw). */
export function MarkdownPreview({ markdown }: { markdown: string }) {
  return (
    <Box css={documentStyles} maxWidth="3xl" mx="auto" data-testid="preview-markdown">
      <Markdown remarkPlugins={[remarkGfm]} urlTransform={safeUrl} components={safeLinks}>
        {markdown}
      </Markdown>
    </Box>
  );
}

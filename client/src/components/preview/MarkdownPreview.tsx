import { Box, Link } from "@chakra-ui/react";
import Markdown, { defaultUrlTransform, type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { documentStyles } from "./documentStyles";

/** Links only to the web, to mail or within the file; a relative path would point into this app. */
function safeUrl(url: string): string {
  const cleaned = defaultUrlTransform(url);
  return /^(https?:|mailto:|#)/i.test(cleaned) ? cleaned : "";
}

const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <Link href={href} target={href.startsWith("#") ? undefined : "_blank"} rel="noopener noreferrer nofollow" color="brand.fg" textDecoration="underline">
        {children}
      </Link>
    ) : (
      <>{children}</>
    ),
  // a picture of the file is a link, never fetched by itself: a file must not make the browser call any address
  img: ({ alt, src }) =>
    typeof src === "string" && src ? (
      <Link href={src} target="_blank" rel="noopener noreferrer nofollow" color="brand.fg">
        {alt || src}
      </Link>
    ) : (
      <>{alt}</>
    ),
};

/** Markdown rendered safely: GitHub's flavour, raw HTML shown as text (react-markdown without rehype-raw). */
export function MarkdownPreview({ markdown }: { markdown: string }) {
  return (
    <Box css={documentStyles} maxWidth="3xl" mx="auto" data-testid="preview-markdown">
      <Markdown remarkPlugins={[remarkGfm]} urlTransform={safeUrl} components={components}>
        {markdown}
      </Markdown>
    </Box>
  );
}

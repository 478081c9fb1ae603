import { Box } from "@chakra-ui/react";
import DOMPurify from "dompurify";
import { useMemo } from "react";
import { documentStyles } from "./documentStyles";

/** Links to the web or mail, in-document anchors, and inlined pictures: nothing else may be fetched or run. */
const ALLOWED_URI = /^(?:https?:|mailto:|#|data:image\/(?:png|jpe?g|gif|webp|bmp);base64,)/i;

/**
 * HTML the server rendered and sanitised (a DOCX, an e-mail's body), sanitised once more here before it enters
 * the page: a server bug must not become a script in the reader's session.
 */
export function sanitizedHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    ALLOWED_URI_REGEXP: ALLOWED_URI,
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select"],
    FORBID_ATTR: ["style"],
    ADD_ATTR: ["target"],
  });
}

/** A document's HTML reads in a centred column; an e-mail's body (`inline`) under its headers. */
export function HtmlPreview({ html, inline = false, testId = "preview-html" }: { html: string; inline?: boolean; testId?: string }) {
  const clean = useMemo(() => sanitizedHtml(html), [html]);
  return <Box css={documentStyles} maxWidth={inline ? undefined : "3xl"} mx={inline ? undefined : "auto"} dangerouslySetInnerHTML={{ __html: clean }} data-testid={testId} />;
}

import { Box } from "@chakra-ui/react";
import { createContext, useContext, useMemo, type ComponentProps } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import type { ChatReferenceFieldsFragment } from "../../graphql/gql/graphql";
import { safeLinks, safeUrls } from "../safeMarkdown";
import { remarkCitations } from "./citations";
import { CitationMarker } from "./CitationMarker";

const safeUrl = safeUrls({ inPage: false });

interface AnswerMarkdownProps {
  content: string;
  references: ChatReferenceFieldsFragment[];
  linkDocuments: boolean;
}

const Citations = createContext<{ references: ChatReferenceFieldsFragment[]; linkDocuments: boolean }>({ references: [], linkDocuments: false });

/** A citation marker from the context: the components below stay the same functions across renders. */
function Citation(props: ComponentProps<"sup"> & { "data-citation"?: string }) {
  const { references, linkDocuments } = useContext(Citations);
  const cited = props["data-citation"];
  if (cited === undefined) return <sup>{props.children}</sup>;
  const index = Number(cited);
  return <CitationMarker index={index} reference={references.find((reference) => reference.index === index)} linkDocuments={linkDocuments} />;
}

/**
 * Defined once: react-markdown uses them as component types, so new functions on each render would remount
 * every marker — closing an open citation when the answer re-renders (a streamed word, its reference arriving).
 */
const components: Components = {
  ...safeLinks,
  sup: Citation,
};

/**
 * An answer rendered as Markdown, safely: no raw HTML (react-markdown shows it as text without rehype-raw), links sanitised
 * and opened outside the page, no remote images (a model or a document could otherwise make the browser fetch any address).
 */
export function AnswerMarkdown({ content, references, linkDocuments }: AnswerMarkdownProps) {
  const citations = useMemo(() => ({ references, linkDocuments }), [references, linkDocuments]);
  return (
    <Box className="chat-markdown" css={markdownStyles} data-testid="answer-markdown">
      <Citations.Provider value={citations}>
        <Markdown remarkPlugins={[remarkGfm, remarkCitations]} urlTransform={safeUrl} components={components}>
          {content}
        </Markdown>
      </Citations.Provider>
    </Box>
  );
}

const markdownStyles = {
  fontSize: "sm",
  lineHeight: "1.7",
  wordBreak: "break-word",
  "& > *:first-child": { marginTop: 0 },
  "& > *:last-child": { marginBottom: 0 },
  "& p, & ul, & ol, & pre, & table, & blockquote": { marginY: "2.5" },
  "& ul": { listStyleType: "disc", paddingStart: "5" },
  "& ol": { listStyleType: "decimal", paddingStart: "5" },
  "& li": { marginY: "1" },
  "& h1, & h2, & h3, & h4": { fontWeight: "semibold", marginTop: "4", marginBottom: "2", lineHeight: "1.3" },
  "& h1": { fontSize: "lg" },
  "& h2": { fontSize: "md" },
  "& h3, & h4": { fontSize: "sm" },
  "& code": { fontFamily: "mono", fontSize: "0.85em", bg: "bg.muted", paddingX: "1", paddingY: "0.5", rounded: "l1" },
  "& pre": { bg: "bg.muted", padding: "3", rounded: "l2", overflowX: "auto" },
  "& pre code": { bg: "transparent", padding: 0 },
  "& blockquote": { borderStartWidth: "3px", borderColor: "border.emphasized", paddingStart: "3", color: "fg.muted" },
  "& table": { borderCollapse: "collapse", display: "block", overflowX: "auto" },
  "& th, & td": { borderWidth: "1px", borderColor: "border", paddingX: "2", paddingY: "1", textAlign: "start" },
  "& th": { bg: "bg.subtle", fontWeight: "semibold" },
  "& hr": { borderColor: "border", marginY: "3" },
};

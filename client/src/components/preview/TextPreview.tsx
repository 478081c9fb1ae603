import { Box, Flex, Text } from "@chakra-ui/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { highlighted } from "./highlight";
import { lineNumbers } from "./previewLogic";

/** highlight.js's token classes in the theme's palette: the same tokens read in light and dark. */
const tokenStyles = {
  "& .hljs-keyword, & .hljs-selector-tag, & .hljs-built_in, & .hljs-type, & .hljs-doctag": { color: "purple.fg" },
  "& .hljs-string, & .hljs-regexp, & .hljs-addition, & .hljs-attribute, & .hljs-template-string": { color: "green.fg" },
  "& .hljs-number, & .hljs-literal, & .hljs-symbol, & .hljs-bullet": { color: "orange.fg" },
  "& .hljs-title, & .hljs-title.function_, & .hljs-section, & .hljs-name": { color: "blue.fg" },
  "& .hljs-attr, & .hljs-variable, & .hljs-template-variable, & .hljs-property, & .hljs-params": { color: "cyan.fg" },
  "& .hljs-comment, & .hljs-quote, & .hljs-meta": { color: "fg.muted", fontStyle: "italic" },
  "& .hljs-deletion": { color: "red.fg" },
  "& .hljs-emphasis": { fontStyle: "italic" },
  "& .hljs-strong": { fontWeight: "bold" },
};

/** Text and code: a gutter of line numbers beside the text, highlighted in its language when it has one. */
export function TextPreview({ text, language }: { text: string; language: string | null | undefined }) {
  const { t } = useTranslation();
  const html = useMemo(() => highlighted(text, language), [text, language]);
  const numbers = useMemo(() => lineNumbers(text), [text]);
  if (text.trim() === "") return <Text color="fg.muted">{t("preview.noText")}</Text>;
  // one line of text per line of the gutter: lines are not wrapped, the block scrolls sideways
  const lines = { margin: 0, fontFamily: "mono", fontSize: "sm", lineHeight: "1.6", whiteSpace: "pre" } as const;
  return (
    <Flex overflow="auto" maxHeight="75vh" bg="bg.subtle" rounded="l2" borderWidth="1px" data-testid="preview-text" data-language={language ?? ""}>
      <Box as="pre" {...lines} aria-hidden paddingX="3" paddingY="3" color="fg.subtle" textAlign="end" userSelect="none" borderEndWidth="1px" bg="bg.muted" position="sticky" left="0" data-testid="preview-line-numbers">
        {numbers}
      </Box>
      <Box as="pre" {...lines} paddingX="4" paddingY="3" flex="1" css={tokenStyles}>
        {html === null ? <code>{text}</code> : <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />}
      </Box>
    </Flex>
  );
}

import { Button, Field, Flex, HStack, Stack, Text, Textarea } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuMerge, LuRotateCcw } from "react-icons/lu";
import { notify } from "../../../components/toaster";
import { describeError, fieldProblemsOf, problemText, type FieldProblems } from "../../../errors";
import { useFormatters } from "../../../format";
import { MergeChunksDocument, MergeTextSizeDocument, type MergeChunksMutation } from "../../../graphql/gql/graphql";
import { useDebouncedValue } from "../../../hooks/useDebouncedValue";
import { SectionTitle } from "./SectionTitle";
import { MergeDone } from "./MergeDone";
import { joinTexts, moved } from "./mergeDraft";
import { MergeSourceList, type MergeSourceItem } from "./MergeSourceList";
import { MergeTargetFields, type MergeTargetChoice } from "./MergeTargetFields";

const join = (sources: MergeSourceItem[]) => joinTexts(sources.map((source) => source.chunk.content));

/** The merge itself: the chosen chunks in order, the merged text to edit with its size, the target, and Save. */
export function MergeForm({ sources: chosen }: { sources: MergeSourceItem[] }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const [sources, setSources] = useState(chosen);
  const [text, setText] = useState(() => join(chosen));
  // Until the user edits the text, it follows the order of the chunks; "join again" starts it over.
  const [edited, setEdited] = useState(false);
  const embeddingModels = [...new Set(chosen.map((source) => source.knowledgeBase.embeddingModel))];
  const [choice, setChoice] = useState<MergeTargetChoice>({
    target: embeddingModels.length === 1 ? "chunk" : "document",
    knowledgeBaseId: chosen[0].knowledgeBase.id,
    documentId: chosen[0].document.id,
    documentName: "",
    sourceAction: "keep",
  });
  const [problems, setProblems] = useState<FieldProblems>({});
  const [done, setDone] = useState<MergeChunksMutation["mergeChunks"] | null>(null);
  const settledText = useDebouncedValue(text, 300);
  const { data: size } = useQuery(MergeTextSizeDocument, { variables: { text: settledText }, skip: !settledText.trim() });
  const [mergeChunks, { loading: saving }] = useMutation(MergeChunksDocument);

  function reorder(next: MergeSourceItem[]) {
    setSources(next);
    if (!edited) setText(join(next));
  }

  async function save() {
    setProblems({});
    try {
      const into = choice.target === "chunk" ? { documentId: choice.documentId || null } : { knowledgeBaseId: choice.knowledgeBaseId || null, documentName: choice.documentName };
      const { data } = await mergeChunks({
        variables: { input: { chunkIds: sources.map((source) => source.chunk.id), content: text, target: choice.target, sourceAction: choice.sourceAction, ...into } },
      });
      if (data) setDone(data.mergeChunks);
    } catch (failure) {
      const found = fieldProblemsOf(failure);
      setProblems(found);
      if (Object.keys(found).length === 0) notify.error(describeError(failure, i18n));
    }
  }

  if (done) return <MergeDone result={done} />;
  const tokens = size?.mergeTextSize.tokens;
  const maxChunkTokens = size?.mergeTextSize.maxChunkTokens;
  const overChunk = choice.target === "chunk" && tokens !== undefined && maxChunkTokens !== undefined && tokens > maxChunkTokens && !!text.trim();
  const characters = [...text].length;
  return (
    <Stack gap="8" maxWidth="4xl">
      <Stack gap="3">
        <SectionTitle title={t("merge.sources")} help={t("merge.sourcesHelp")} count={sources.length} />
        <MergeSourceList sources={sources} onMove={(index, delta) => reorder(moved(sources, index, delta))} onRemove={(index) => reorder(sources.filter((_, i) => i !== index))} />
        {(sources.length < 2 || problems.chunkIds) && (
          <Text fontSize="sm" color="fg.error" role="alert">
            {problems.chunkIds ? problemText(i18n, problems.chunkIds) : t("merge.tooFew")}
          </Text>
        )}
      </Stack>
      <Stack gap="3">
        <Flex justify="space-between" align="flex-end" gap="3" wrap="wrap">
          <SectionTitle title={t("merge.text")} help={t("merge.textHelp")} />
          <Button
            size="xs"
            variant="ghost"
            disabled={!edited && text === join(sources)}
            onClick={() => {
              setText(join(sources));
              setEdited(false);
            }}
            data-testid="merge-rejoin"
          >
            <LuRotateCcw /> {t("merge.rejoin")}
          </Button>
        </Flex>
        <Field.Root invalid={!!problems.content}>
          <Textarea
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setEdited(true);
            }}
            minHeight="64"
            autoresize
            maxHeight="50vh"
            fontSize="sm"
            bg="bg.panel"
            aria-label={t("merge.text")}
            data-testid="merge-text"
          />
          <Field.ErrorText>{problemText(i18n, problems.content)}</Field.ErrorText>
        </Field.Root>
        <HStack gap="3" fontSize="xs" color={overChunk ? "fg.error" : "fg.muted"} wrap="wrap" data-testid="merge-size">
          <Text>{t("merge.characters", { count: characters, formatted: format.number(characters) })}</Text>
          {tokens !== undefined && <Text data-testid="merge-tokens">· {t("merge.tokens", { count: tokens, formatted: format.number(tokens) })}</Text>}
          {overChunk && <Text>· {t("merge.overChunkLimit", { max: format.number(maxChunkTokens) })}</Text>}
        </HStack>
      </Stack>
      <Stack gap="3" bg="bg.panel" borderWidth="1px" rounded="l3" p="5">
        <MergeTargetFields
          value={choice}
          onChange={(patch) => setChoice((current) => ({ ...current, ...patch }))}
          embeddingModels={embeddingModels}
          knownDocuments={new Map(chosen.map((source) => [source.document.id, source.document.name]))}
          problems={problems}
        />
        <Flex justify="flex-end" pt="2">
          <Button colorPalette="brand" loading={saving} disabled={sources.length < 2 || !text.trim() || overChunk} onClick={() => void save()} data-testid="merge-save">
            <LuMerge /> {t("merge.save")}
          </Button>
        </Flex>
      </Stack>
    </Stack>
  );
}

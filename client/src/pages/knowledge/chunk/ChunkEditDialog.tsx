import { Button, CloseButton, Dialog, Portal, Stack, Switch, Textarea } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../../components/FormField";
import { notify } from "../../../components/toaster";
import { describeError, fieldProblemsOf, hasNoProblems, problemText, type FieldProblems } from "../../../errors";
import { AddChunkDocument, ChunksDocument, KnowledgeBaseDocument, UpdateChunkDocument, type ChunkCardFragment } from "../../../graphql/gql/graphql";
import { TagListInput } from "../TagListInput";

interface ChunkEditDialogProps {
  /** The chunk to edit, "new" to add one to the document, or null when closed. */
  chunk: ChunkCardFragment | "new" | null;
  documentId: string;
  onClose: () => void;
}

/** Edits a chunk's text, keywords and questions (one a line), or adds a chunk by hand. */
export function ChunkEditDialog({ chunk, documentId, onClose }: ChunkEditDialogProps) {
  const { t, i18n } = useTranslation();
  const [content, setContent] = useState("");
  const [keywords, setKeywords] = useState<string[]>([]);
  const [questions, setQuestions] = useState("");
  const [available, setAvailable] = useState(true);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [addChunk, { loading: adding }] = useMutation(AddChunkDocument, { refetchQueries: [ChunksDocument, KnowledgeBaseDocument] });
  const [updateChunk, { loading: updating }] = useMutation(UpdateChunkDocument);
  const busy = adding || updating;
  const isNew = chunk === "new";

  useEffect(() => {
    if (!chunk) return;
    setContent(chunk === "new" ? "" : chunk.content);
    setKeywords(chunk === "new" ? [] : chunk.keywords);
    setQuestions(chunk === "new" ? "" : chunk.questions.join("\n"));
    setAvailable(chunk === "new" ? true : chunk.available);
    setProblems({});
  }, [chunk]);

  async function save() {
    if (!content.trim()) return setProblems({ content: { key: "errors.knowledge.chunkContentRequired" } });
    const questionList = questions
      .split("\n")
      .map((question) => question.trim())
      .filter(Boolean);
    try {
      if (chunk === "new") {
        await addChunk({ variables: { documentId, content, keywords, questions: questionList } });
        notify.success("created");
      } else if (chunk) {
        await updateChunk({ variables: { id: chunk.id, content, keywords, questions: questionList, available } });
        notify.success("modified");
      }
      onClose();
    } catch (failure) {
      const fromServer = fieldProblemsOf(failure);
      setProblems(fromServer);
      if (hasNoProblems(fromServer)) notify.error(describeError(failure, i18n));
    }
  }

  return (
    <Dialog.Root open={chunk !== null} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center" size="lg">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="chunk-dialog">
            <Dialog.Header>
              <Dialog.Title>{isNew ? t("kb.chunk.addTitle") : t("kb.chunk.editTitle")}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="5">
                <FormField label={t("kb.chunk.content")} required error={problemText(i18n, problems.content)}>
                  <Textarea
                    rows={10}
                    autoFocus
                    value={content}
                    onChange={(event) => {
                      setContent(event.target.value);
                      setProblems({});
                    }}
                    data-testid="chunk-content"
                  />
                </FormField>
                <FormField label={t("kb.chunk.keywords")} helper={t("kb.chunk.keywordsHelp")}>
                  <TagListInput value={keywords} onChange={setKeywords} testId="chunk-keywords" />
                </FormField>
                <FormField label={t("kb.chunk.questions")} helper={t("kb.chunk.questionsHelp")}>
                  <Textarea rows={3} value={questions} onChange={(event) => setQuestions(event.target.value)} data-testid="chunk-questions" />
                </FormField>
                {!isNew && (
                  <Switch.Root checked={available} onCheckedChange={(details) => setAvailable(details.checked)} colorPalette="brand">
                    <Switch.HiddenInput />
                    <Switch.Control />
                    <Switch.Label>{t("kb.chunk.enabled")}</Switch.Label>
                  </Switch.Root>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                {t("common.cancel")}
              </Button>
              <Button colorPalette="brand" loading={busy} onClick={() => void save()} data-testid="chunk-save">
                {t("common.save")}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild disabled={busy}>
              <CloseButton size="sm" aria-label={t("common.close")} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

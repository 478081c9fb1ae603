import { Alert, Button, CloseButton, Dialog, Portal, Stack } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../../components/FormField";
import { notify } from "../../../components/toaster";
import { describeError, fieldProblemsOf, hasNoProblems, problemText, type FieldProblems } from "../../../errors";
import { ChangeDocumentParserDocument, ChunkMethodsDocument, type DocumentRowFragment } from "../../../graphql/gql/graphql";
import { ChunkMethodSelect, ParserFields } from "../configuration/ParserFields";
import { checkParserDraft, PARSER_PROBLEM_PREFIX, parserConfigPatch, parserDraftOf } from "../configuration/parserSettings";
import type { ParamDraft } from "../../../components/paramForm.logic";

/** A document's chunk method and the parser settings of that method; saving removes its chunks until it is parsed again. */
export function ParserSettingsDialog({ document, onClose, onChanged }: { document: DocumentRowFragment | null; onClose: () => void; onChanged: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const { data } = useQuery(ChunkMethodsDocument, { skip: !document });
  const [changeParser, { loading }] = useMutation(ChangeDocumentParserDocument);
  const [method, setMethod] = useState("");
  const [draft, setDraft] = useState<ParamDraft | null>(null);
  const [problems, setProblems] = useState<FieldProblems>({});

  useEffect(() => {
    if (!document) return;
    setMethod(document.chunkMethod);
    setDraft(parserDraftOf(document.parserConfig));
    setProblems({});
  }, [document]);

  async function save() {
    if (!document || !draft) return;
    const found = checkParserDraft(specs, draft);
    setProblems(found);
    if (!hasNoProblems(found)) return;
    const patch = parserConfigPatch(specs, draft, document.parserConfig);
    try {
      await changeParser({ variables: { id: document.id, chunkMethod: method, parserConfig: Object.keys(patch).length ? patch : null } });
      onChanged(document.id);
      notify.success("modified");
      onClose();
    } catch (failure) {
      const fromServer = fieldProblemsOf(failure);
      setProblems(fromServer);
      if (hasNoProblems(fromServer)) notify.error(describeError(failure, i18n));
    }
  }

  const methods = data?.chunkMethods.map((m) => m.name) ?? (document ? [document.chunkMethod] : []);
  const specs = data?.chunkMethods.find((m) => m.name === method)?.params ?? [];

  return (
    <Dialog.Root open={document !== null} onOpenChange={(event) => !event.open && !loading && onClose()} placement="center" size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="parser-dialog">
            <Dialog.Header>
              <Dialog.Title>{t("kb.dataset.parserTitle")}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {document && draft && (
                <Stack gap="6">
                  <Alert.Root status="warning" variant="subtle">
                    <Alert.Indicator />
                    <Alert.Description>{t("kb.dataset.parserWarning")}</Alert.Description>
                  </Alert.Root>
                  <FormField label={t("kb.field.chunkMethod")} error={problemText(i18n, problems.chunkMethod)}>
                    <ChunkMethodSelect value={method} methods={methods} onChange={setMethod} />
                  </FormField>
                  <ParserFields
                    specs={specs}
                    draft={draft}
                    problems={problems}
                    onChange={(next, touched) => {
                      setDraft(next);
                      setProblems((current) => ({ ...current, ...Object.fromEntries(touched.map((key) => [`${PARSER_PROBLEM_PREFIX}${key}`, undefined])) }));
                    }}
                  />
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={loading}>
                {t("common.cancel")}
              </Button>
              <Button colorPalette="brand" onClick={() => void save()} loading={loading} data-testid="parser-save">
                {t("common.save")}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild disabled={loading}>
              <CloseButton size="sm" aria-label={t("common.close")} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

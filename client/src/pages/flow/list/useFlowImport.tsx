import { Box, Button, CloseButton, Dialog, Portal, Stack, Text } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useRef, useState, type ChangeEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuArrowRight } from "react-icons/lu";
import { useNavigate } from "react-router-dom";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import { ImportFlowFileDocument, type ImportFlowFileMutation } from "../../../graphql/gql/graphql";

/** A flow file is its graph as JSON: RAGFlow's largest templates are ~130 kB, so 5 MB is no flow. */
const MAX_FLOW_FILE_BYTES = 5 * 1024 * 1024;

type Imported = ImportFlowFileMutation["importFlow"];

interface FlowImport {
  /** Opens the file picker. */
  choose: () => void;
  busy: boolean;
  /** The hidden file input and the dialog that reports the import: render once on the page. */
  element: ReactNode;
}

/**
 * Imports a flow file (Cairn's export, a RAGFlow template or canvas DSL): the server reads and checks it, and says what
 * it changed or left out; that is shown before the flow is opened. A bad file creates nothing and shows why.
 */
export function useFlowImport(): FlowImport {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [importFlow] = useMutation(ImportFlowFileDocument);
  const [busy, setBusy] = useState(false);
  const [imported, setImported] = useState<Imported | null>(null);

  async function read(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (file.size > MAX_FLOW_FILE_BYTES) {
      notify.error(t("flow.import.tooLarge"));
      return;
    }
    setBusy(true);
    try {
      // The text as it is: the server tells a file that is not JSON from one that is not a flow.
      const { data } = await importFlow({ variables: { file: await file.text() }, refetchQueries: "active" });
      if (data) setImported(data.importFlow);
    } catch (error) {
      notify.error(describeError(error, i18n));
    } finally {
      setBusy(false);
    }
  }

  const element = (
    <>
      <input ref={input} type="file" accept=".json,application/json" hidden onChange={(event) => void read(event)} data-testid="flow-import-input" />
      <Dialog.Root open={imported !== null} onOpenChange={(event) => !event.open && setImported(null)} placement="center">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="flow-import-dialog">
              <Dialog.Header>
                <Dialog.Title>{t("flow.list.importedTitle")}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <Text>{t("flow.list.importedBody", { title: imported?.flow.title ?? "" })}</Text>
                  {imported && imported.notes.length > 0 && (
                    <Box as="ul" listStyleType="disc" ps="5" fontSize="sm" color="fg.muted" display="grid" gap="1.5" data-testid="flow-import-notes">
                      {imported.notes.map((note) => (
                        <li key={note}>{note}</li>
                      ))}
                    </Box>
                  )}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={() => setImported(null)} data-testid="flow-import-stay">
                  {t("flow.list.backToList")}
                </Button>
                <Button colorPalette="brand" onClick={() => imported && navigate(`/flow/${imported.flow.id}`)} data-testid="flow-import-open">
                  {t("flow.list.open")} <LuArrowRight />
                </Button>
              </Dialog.Footer>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t("common.close")} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </>
  );

  return { choose: () => input.current?.click(), busy, element };
}

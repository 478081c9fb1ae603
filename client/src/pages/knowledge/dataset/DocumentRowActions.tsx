import { HStack, IconButton, Menu, Portal } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCirclePlay, LuCircleStop, LuDownload, LuEllipsis, LuLayers, LuPencil, LuRotateCw, LuSettings2, LuTrash2 } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { RUN } from "../../../documents/runStatus";
import type { DocumentRowFragment } from "../../../graphql/gql/graphql";

/** What a row's buttons and menu do: the mutations, and the dialogs the page opens. */
export interface DocumentRowHandlers {
  run: (ids: string[]) => Promise<void>;
  cancel: (ids: string[]) => Promise<void>;
  enable: (ids: string[], enabled: boolean) => Promise<void>;
  download: (document: DocumentRowFragment) => Promise<void>;
  editParser: (document: DocumentRowFragment) => void;
  rename: (document: DocumentRowFragment) => void;
  delete: (documents: DocumentRowFragment[]) => void;
}

/** The end of a row: run or re-run (cancel while parsing), and the menu of the other actions. */
export function DocumentRowActions({ document, chunksLink, handlers }: { document: DocumentRowFragment; chunksLink: string; handlers: DocumentRowHandlers }) {
  const { t } = useTranslation();
  const running = document.run === RUN.running;
  const runLabel = document.run === RUN.unstarted ? t("kb.dataset.run") : t("kb.dataset.rerun");
  return (
    <HStack gap="0.5" justify="flex-end">
      {running ? (
        <IconButton size="sm" variant="ghost" colorPalette="red" aria-label={t("kb.dataset.cancel")} title={t("kb.dataset.cancel")} onClick={() => void handlers.cancel([document.id])} data-testid="document-cancel">
          <LuCircleStop />
        </IconButton>
      ) : (
        <IconButton size="sm" variant="ghost" colorPalette="brand" aria-label={runLabel} title={runLabel} onClick={() => void handlers.run([document.id])} data-testid="document-run">
          {document.run === RUN.unstarted ? <LuCirclePlay /> : <LuRotateCw />}
        </IconButton>
      )}
      <Menu.Root positioning={{ placement: "bottom-end" }}>
        <Menu.Trigger asChild>
          <IconButton size="sm" variant="ghost" aria-label={t("kb.list.actions")} data-testid="document-menu">
            <LuEllipsis />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              <Menu.Item value="chunks" asChild>
                <RouterLink to={chunksLink}>
                  <LuLayers /> {t("kb.dataset.viewChunks")}
                </RouterLink>
              </Menu.Item>
              <Menu.Item value="parser" disabled={running} onSelect={() => handlers.editParser(document)} data-testid="document-parser">
                <LuSettings2 /> {t("kb.dataset.parserTitle")}
              </Menu.Item>
              <Menu.Item value="rename" onSelect={() => handlers.rename(document)} data-testid="document-rename">
                <LuPencil /> {t("kb.dataset.rename")}
              </Menu.Item>
              <Menu.Item value="download" onSelect={() => void handlers.download(document)} data-testid="document-download">
                <LuDownload /> {t("kb.dataset.download")}
              </Menu.Item>
              <Menu.Item value="delete" color="fg.error" _hover={{ bg: "bg.error", color: "fg.error" }} onSelect={() => handlers.delete([document])} data-testid="document-delete">
                <LuTrash2 /> {t("common.delete")}
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </HStack>
  );
}

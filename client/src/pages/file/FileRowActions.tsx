import { IconButton, Menu, Portal } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuDownload, LuEllipsis, LuEye, LuFolderInput, LuFolderOpen, LuLink, LuPencil, LuTrash2 } from "react-icons/lu";
import type { FileLinkFieldsFragment, FileRowFragment } from "../../graphql/gql/graphql";
import { FILE_ACTION, isFolder } from "./fileActions";

/** What the table's buttons do: open a dialog of the page, or act at once. */
export interface FileHandlers {
  /** A folder opens in the table; a file opens in the preview drawer. */
  open: (file: FileRowFragment) => void;
  download: (file: FileRowFragment) => void;
  rename: (file: FileRowFragment) => void;
  move: (files: FileRowFragment[]) => void;
  link: (files: FileRowFragment[]) => void;
  unlink: (file: FileRowFragment, link: FileLinkFieldsFragment) => void;
  delete: (files: FileRowFragment[]) => void;
}

/** A row's menu, holding only what the server says this user may do with it (read-only rows offer no change). */
export function FileRowActions({ file, actions, handlers }: { file: FileRowFragment; actions: ReadonlySet<string>; handlers: FileHandlers }) {
  const { t } = useTranslation();
  const folder = isFolder(file);
  const may = (action: string) => actions.has(action);
  return (
    <Menu.Root positioning={{ placement: "bottom-end" }}>
      <Menu.Trigger asChild>
        <IconButton size="sm" variant="ghost" aria-label={t("file.table.actionsOf", { name: file.name })} data-testid="file-menu">
          <LuEllipsis />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="48">
            <Menu.Item value="open" onSelect={() => handlers.open(file)} data-testid="file-open">
              {folder ? <LuFolderOpen /> : <LuEye />} {folder ? t("file.menu.open") : t("file.menu.preview")}
            </Menu.Item>
            {!folder && may(FILE_ACTION.download) && (
              <Menu.Item value="download" onSelect={() => handlers.download(file)} data-testid="file-download">
                <LuDownload /> {t("file.menu.download")}
              </Menu.Item>
            )}
            {may(FILE_ACTION.link) && (
              <Menu.Item value="link" onSelect={() => handlers.link([file])} data-testid="file-link">
                <LuLink /> {t("file.menu.link")}
              </Menu.Item>
            )}
            {may(FILE_ACTION.rename) && (
              <Menu.Item value="rename" onSelect={() => handlers.rename(file)} data-testid="file-rename">
                <LuPencil /> {t("file.menu.rename")}
              </Menu.Item>
            )}
            {may(FILE_ACTION.move) && (
              <Menu.Item value="move" onSelect={() => handlers.move([file])} data-testid="file-move">
                <LuFolderInput /> {t("file.menu.move")}
              </Menu.Item>
            )}
            {may(FILE_ACTION.delete) && (
              <Menu.Item value="delete" color="fg.error" _hover={{ bg: "bg.error", color: "fg.error" }} onSelect={() => handlers.delete([file])} data-testid="file-delete">
                <LuTrash2 /> {t("common.delete")}
              </Menu.Item>
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

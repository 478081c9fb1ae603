import { Box, Button, Center, Flex, HStack, IconButton, Menu, Portal, Spinner, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuChevronDown, LuCloudDownload, LuFolderPlus, LuFolderUp, LuPanelLeftClose, LuPanelLeftOpen, LuUpload } from "react-icons/lu";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { LoadFailed } from "../../components/LoadFailed";
import { PageHeader } from "../../components/PageHeader";
import { Pager } from "../../components/Pager";
import { TextFieldsDialog } from "../../components/TextFieldsDialog";
import type { FileLinkFieldsFragment, FileRowFragment } from "../../graphql/gql/graphql";
import { useCurrentUser } from "../../session/useCurrentUser";
import { DeleteFilesDialog } from "./DeleteFilesDialog";
import { FILE_ACTION, isFolder } from "./fileActions";
import { FilesEmpty } from "./FilesEmpty";
import type { FileHandlers } from "./FileRowActions";
import { FileTable } from "./FileTable";
import { FileToolbar } from "./FileToolbar";
import { FileUploadDialog } from "./FileUploadDialog";
import { FolderTree } from "./FolderTree";
import { LinkDialog } from "./LinkDialog";
import { MoveDialog } from "./MoveDialog";
import { PreviewDrawer } from "./PreviewDrawer";
import { RenameDialog } from "./RenameDialog";
import { S3ImportDialog } from "./S3ImportDialog";
import { useFileActions } from "./useFileActions";
import { useFileUpload } from "./useFileUpload";
import { FILES_PAGE_SIZE, useFileList, type FileList } from "./useFileList";
import { useS3Import } from "./useS3Import";

/** The dialog or drawer open over the page, if any. */
type Overlay =
  | { kind: "upload" | "newFolder" | "s3" }
  | { kind: "rename" | "preview"; file: FileRowFragment }
  | { kind: "move" | "link" | "delete"; files: FileRowFragment[] }
  | { kind: "unlink"; file: FileRowFragment; link: FileLinkFieldsFragment }
  | null;

/** `/file` (§2): the user's folders and files, with uploads, an S3 import, links to knowledge bases and previews. */
export default function FileManagerPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const list = useFileList();
  const actions = useFileActions(list, user?.id);
  const [overlay, setOverlay] = useState<Overlay>(null);
  const [treeOpen, setTreeOpen] = useState(true);
  const close = () => setOverlay(null);
  const upload = useFileUpload({ open: overlay?.kind === "upload", folderId: list.folderId, onUploaded: actions.refresh, onClose: close });
  const s3 = useS3Import({ open: overlay?.kind === "s3", folderId: list.folderId, onImported: () => void actions.refresh() });

  const folderName = list.path.length > 1 ? (list.folder?.name ?? "") : t("file.root");
  // Nothing can be added to a read-only (`.knowledgebase`) folder, nor where the server says the user may not.
  const canAdd = actions.folderActions().has(FILE_ACTION.addInto);
  const openPath = list.path.map((step) => step.id);
  const handlers: FileHandlers = {
    open: (file) => (isFolder(file) ? list.openFolder(file.id) : setOverlay({ kind: "preview", file })),
    download: (file) => void actions.download(file),
    rename: (file) => setOverlay({ kind: "rename", file }),
    move: (files) => setOverlay({ kind: "move", files }),
    link: (files) => setOverlay({ kind: "link", files }),
    unlink: (file, link) => setOverlay({ kind: "unlink", file, link }),
    delete: (files) => setOverlay({ kind: "delete", files }),
  };

  return (
    <>
      <PageHeader title={t("pages.file.title")} description={t("file.description")} actions={<AddMenu canAdd={canAdd} onChoose={(kind) => setOverlay({ kind })} />} />

      <Flex gap="4" align="flex-start">
        {treeOpen && (
          <Box as="nav" aria-label={t("file.tree.title")} width="56" flexShrink={0} bg="bg.panel" borderWidth="1px" rounded="l3" p="2" position="sticky" top="4" maxHeight="calc(100dvh - 8rem)" overflowY="auto" data-testid="file-tree-panel">
            <HStack justify="space-between" px="1" pb="1">
              <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wider">
                {t("file.tree.title")}
              </Text>
              <IconButton size="2xs" variant="ghost" aria-label={t("file.tree.hide")} title={t("file.tree.hide")} onClick={() => setTreeOpen(false)} data-testid="file-tree-hide">
                <LuPanelLeftClose />
              </IconButton>
            </HStack>
            <FolderTree selectedId={list.folder?.id ?? null} onSelect={list.openFolder} openPath={openPath} testId="file-tree" />
          </Box>
        )}

        <Box flex="1" minWidth="0" bg="bg.panel" borderWidth="1px" rounded="l3" overflow="hidden">
          {!treeOpen && (
            <Button size="xs" variant="ghost" m="2" mb="0" onClick={() => setTreeOpen(true)} data-testid="file-tree-show">
              <LuPanelLeftOpen /> {t("file.tree.show")}
            </Button>
          )}
          <FileToolbar list={list} handlers={handlers} actionsOf={actions.actionsOf} />
          <FileListBody list={list} handlers={handlers} actionsOf={actions.actionsOf} canAdd={canAdd} onUpload={() => setOverlay({ kind: "upload" })} onNewFolder={() => setOverlay({ kind: "newFolder" })} />
          {list.total > FILES_PAGE_SIZE && (
            <Box px="4" py="3" borderTopWidth="1px">
              <Pager page={list.page} pageSize={FILES_PAGE_SIZE} total={list.total} onPage={list.setPage} />
            </Box>
          )}
        </Box>
      </Flex>

      <FileUploadDialog open={overlay?.kind === "upload"} folderName={folderName} upload={upload} onClose={close} />
      <S3ImportDialog open={overlay?.kind === "s3"} folderName={folderName} s3={s3} onClose={close} />
      <TextFieldsDialog
        open={overlay?.kind === "newFolder"}
        title={t("file.newFolder.title")}
        testId="file-new-folder-dialog"
        fields={[{ name: "name", label: t("file.newFolder.name"), required: true, requiredKey: "file.newFolder.nameRequired" }]}
        submitLabel={t("file.newFolder.submit")}
        onClose={close}
        onSubmit={(values) => actions.createFolder(values.name.trim())}
        describeFailure={actions.describeFailure}
        problemsOf={actions.nameProblemsOf}
      />
      <RenameDialog file={overlay?.kind === "rename" ? overlay.file : null} onClose={close} onRename={actions.rename} describeFailure={actions.describeFailure} problemsOf={actions.nameProblemsOf} />
      <MoveDialog files={overlay?.kind === "move" ? overlay.files : null} currentFolderId={list.folder?.id ?? ""} openPath={openPath} onClose={close} onMove={actions.move} describeFailure={actions.describeFailure} />
      <LinkDialog files={overlay?.kind === "link" ? overlay.files : null} onClose={close} onLink={actions.link} describeFailure={actions.describeFailure} />
      <DeleteFilesDialog files={overlay?.kind === "delete" ? overlay.files : null} onClose={close} onDelete={actions.remove} />
      {/* Unlinking deletes the document the file became there (§2: a deletion is confirmed). */}
      <ConfirmDeleteDialog
        open={overlay?.kind === "unlink"}
        subject={overlay?.kind === "unlink" ? t("file.delete.documentIn", { document: overlay.file.name, knowledgeBase: overlay.link.name }) : undefined}
        onClose={close}
        onConfirm={() => (overlay?.kind === "unlink" ? actions.unlink(overlay.file, overlay.link) : undefined)}
      />
      <PreviewDrawer file={overlay?.kind === "preview" ? overlay.file : null} onClose={close} onDownload={handlers.download} />
    </>
  );
}

/** The page's add button: upload files or a folder, import from S3, or a new folder. */
function AddMenu({ canAdd, onChoose }: { canAdd: boolean; onChoose: (kind: "upload" | "newFolder" | "s3") => void }) {
  const { t } = useTranslation();
  return (
    <HStack gap="2">
      <Button variant="outline" disabled={!canAdd} onClick={() => onChoose("newFolder")} data-testid="file-new-folder">
        <LuFolderPlus /> {t("file.actions.newFolder")}
      </Button>
      <Menu.Root positioning={{ placement: "bottom-end" }}>
        <Menu.Trigger asChild>
          <Button colorPalette="brand" disabled={!canAdd} data-testid="file-add">
            <LuUpload /> {t("file.actions.add")} <LuChevronDown />
          </Button>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              <Menu.Item value="upload" onSelect={() => onChoose("upload")} data-testid="file-add-upload">
                <LuFolderUp /> {t("file.actions.upload")}
              </Menu.Item>
              <Menu.Item value="s3" onSelect={() => onChoose("s3")} data-testid="file-add-s3">
                <LuCloudDownload /> {t("file.actions.importS3")}
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </HStack>
  );
}

interface FileListBodyProps {
  list: FileList;
  handlers: FileHandlers;
  actionsOf: (file: FileRowFragment) => ReadonlySet<string>;
  canAdd: boolean;
  onUpload: () => void;
  onNewFolder: () => void;
}

/** The table, or what stands in for it: loading, a failure, an empty folder or no match. */
function FileListBody({ list, handlers, actionsOf, canAdd, onUpload, onNewFolder }: FileListBodyProps) {
  if (!list.loaded && list.error) return <LoadFailed py="12" error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.loaded) {
    return (
      <Center py="16">
        <Spinner color="brand.solid" />
      </Center>
    );
  }
  if (list.files.length === 0) {
    const reason = list.searching ? "noMatch" : list.path.length <= 1 ? "start" : "folder";
    return <FilesEmpty reason={reason} canAdd={canAdd} onUpload={onUpload} onNewFolder={onNewFolder} />;
  }
  return (
    <Stack gap="0">
      <FileTable files={list.files} selection={list.selection} sort={list.sort} onSort={list.sortBy} handlers={handlers} actionsOf={actionsOf} />
    </Stack>
  );
}

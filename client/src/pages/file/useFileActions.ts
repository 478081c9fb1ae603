import { useMutation } from "@apollo/client/react";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../components/toaster";
import { describeTransferError } from "../../documents/documentTransfer";
import { describeError, errorCodeOf } from "../../errors";
import {
  CreateFileFolderDocument,
  DeleteFilesDocument,
  FileFoldersDocument,
  FilesDocument,
  LinkFilesDocument,
  MoveFilesDocument,
  RenameFileDocument,
  RunParsingDocument,
  UnlinkFileDocument,
  type FileLinkFieldsFragment,
  type FileRowFragment,
} from "../../graphql/gql/graphql";
import { downloadFile } from "./fileTransfer";
import { permissionCacheOf, type PermissionCache } from "./permissionCache";
import type { FileList } from "./useFileList";

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * What a user can do to the rows of the file manager, each reporting its outcome (a toast, or the dialog's own
 * message), and the actions each row offers: the server's `can`, or until it answers, `filePermissionMap`.
 */
export function useFileActions(list: FileList, userId: string | undefined) {
  const { t, i18n } = useTranslation();
  const refreshAll = { refetchQueries: [FilesDocument, FileFoldersDocument] };
  const [createFolder] = useMutation(CreateFileFolderDocument, refreshAll);
  const [renameFile] = useMutation(RenameFileDocument, refreshAll);
  const [moveFiles] = useMutation(MoveFilesDocument, refreshAll);
  const [deleteFiles] = useMutation(DeleteFilesDocument, refreshAll);
  const [linkFiles] = useMutation(LinkFilesDocument, { refetchQueries: [FilesDocument] });
  const [unlinkFile] = useMutation(UnlinkFileDocument, { refetchQueries: [FilesDocument] });
  const [runParsing] = useMutation(RunParsingDocument);

  const permissions: PermissionCache | null = useMemo(() => (userId ? permissionCacheOf(browserStorage(), userId) : null), [userId]);
  // Every answer of the server replaces what the cache kept of those rows.
  useEffect(() => {
    permissions?.remember(list.files.map((file) => ({ id: file.id, can: file.can })));
  }, [permissions, list.files]);

  const describeFailure = (failure: unknown) => describeError(failure, i18n);
  /** A refusal is shown as the server words it; a refused row forgets what the cache promised and is read again. */
  function refused(failure: unknown, files: FileRowFragment[]) {
    if (errorCodeOf(failure) === "FORBIDDEN") {
      permissions?.forget(files.map((file) => file.id));
      void list.refetch();
    }
    return failure;
  }

  return {
    actionsOf: (file: FileRowFragment): ReadonlySet<string> => new Set(file.can ?? permissions?.actionsOf(file.id) ?? []),
    describeFailure,
    /** The dialog actions throw, so that their dialog shows the failure (at its field when the server names one). */
    async createFolder(name: string) {
      await createFolder({ variables: { parentId: list.folderId, name } });
      notify.success("created");
    },
    async rename(file: FileRowFragment, name: string) {
      try {
        await renameFile({ variables: { id: file.id, name } });
      } catch (failure) {
        throw refused(failure, [file]);
      }
      notify.success("renamed");
    },
    async move(files: FileRowFragment[], destinationId: string) {
      try {
        await moveFiles({ variables: { ids: files.map((file) => file.id), destinationId } });
      } catch (failure) {
        throw refused(failure, files);
      }
      list.selection.clear();
      notify.success("operated");
    },
    async link(files: FileRowFragment[], knowledgeBaseIds: string[], parse: boolean) {
      let documentIds: string[];
      try {
        const { data } = await linkFiles({ variables: { ids: files.map((file) => file.id), knowledgeBaseIds } });
        documentIds = data?.linkFilesToKnowledgeBases.map((link) => link.documentId) ?? [];
      } catch (failure) {
        throw refused(failure, files);
      }
      list.selection.clear();
      notify.success("operated");
      if (parse && documentIds.length > 0) await runParsing({ variables: { ids: documentIds }, refetchQueries: [FilesDocument] }).catch((failure) => notify.error(describeFailure(failure)));
    },
    /** The confirmation and toast actions report their failure themselves. */
    async unlink(file: FileRowFragment, link: FileLinkFieldsFragment) {
      try {
        await unlinkFile({ variables: { id: file.id, knowledgeBaseId: link.knowledgeBaseId } });
        notify.success("operated");
      } catch (failure) {
        notify.error(describeFailure(refused(failure, [file])));
      }
    },
    async remove(files: FileRowFragment[]) {
      try {
        await deleteFiles({ variables: { ids: files.map((file) => file.id) } });
        list.selection.clear();
        notify.success("deleted");
      } catch (failure) {
        notify.error(describeFailure(refused(failure, files)));
      }
    },
    async download(file: FileRowFragment) {
      try {
        await downloadFile(file.id, file.name);
      } catch (failure) {
        notify.error(describeTransferError(failure, (key) => t(key), (key) => i18n.exists(key), "errors.fileError"));
      }
    },
  };
}

export type FileActions = ReturnType<typeof useFileActions>;

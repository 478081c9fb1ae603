import { useApolloClient, useMutation } from "@apollo/client/react";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../components/toaster";
import { describeTransferError, downloadFile } from "../../documents/documentTransfer";
import { describeError, errorCodeOf, fieldProblemsOf, hasNoProblems, messageKeyOf, messageParamsOf, type FieldProblems } from "../../errors";
import {
  CreateFolderDocument,
  DeleteFilesDocument,
  FileFoldersDocument,
  FilesDocument,
  LinkFilesDocument,
  MoveFilesDocument,
  RenameFileDocument,
  UnlinkFileDocument,
  type FileLinkFieldsFragment,
  type FileRowFragment,
} from "../../graphql/gql/graphql";
import { fileRoutes } from "../../documents/fileRoutes";
import { isFolder, offeredBy } from "./fileActions";
import { permissionCacheOf, type PermissionCache } from "./permissionCache";
import type { FileList } from "./useFileList";

/** `filePermissionMap` keeps the root folder under this name too, since its id is not known before the first answer. */
const ROOT_KEY = "/";

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
  const client = useApolloClient();
  const refreshAll = { refetchQueries: [FilesDocument, FileFoldersDocument] };
  const [createFolder] = useMutation(CreateFolderDocument, refreshAll);
  const [renameFile] = useMutation(RenameFileDocument, refreshAll);
  const [moveFiles] = useMutation(MoveFilesDocument, refreshAll);
  const [deleteFiles] = useMutation(DeleteFilesDocument, refreshAll);
  const [linkFiles] = useMutation(LinkFilesDocument);
  const [unlinkFile] = useMutation(UnlinkFileDocument);

  const permissions: PermissionCache | null = useMemo(() => (userId ? permissionCacheOf(browserStorage(), userId) : null), [userId]);
  // Every answer of the server replaces what the cache kept of those rows, and of the open folder.
  useEffect(() => {
    if (!list.folder || !list.fresh) return;
    const folder = { id: list.folder.id, can: offeredBy(list.folder) };
    permissions?.remember([...list.files.map((file) => ({ id: file.id, can: offeredBy(file) })), folder, ...(list.folderId ? [] : [{ ...folder, id: ROOT_KEY }])]);
  }, [permissions, list.folder, list.files, list.folderId, list.fresh]);

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
    actionsOf: (file: FileRowFragment): ReadonlySet<string> => new Set(offeredBy(file)),
    /**
     * What may be done in the open folder (upload, new folder, import): the server's answer, or before it arrives
     * (a reload, a folder opened from the address) what `filePermissionMap` kept; nothing when neither is known.
     */
    folderActions(): ReadonlySet<string> {
      if (list.folder && list.fresh) return new Set(offeredBy(list.folder));
      return new Set(permissions?.actionsOf(list.folderId ?? ROOT_KEY) ?? []);
    },
    describeFailure,
    /** Reads the table and the folder tree again, after an upload or an import made files and folders. */
    refresh: () => client.refetchQueries({ include: [FilesDocument, FileFoldersDocument] }),
    /**
     * The problems a name dialog shows at its one field: the server's field problems, or a refusal of the name itself
     * (taken, a "/" in it) that the server raises without naming a field.
     */
    nameProblemsOf(failure: unknown): FieldProblems {
      const fields = fieldProblemsOf(failure);
      if (!hasNoProblems(fields)) return fields;
      const key = messageKeyOf(failure);
      const aboutTheName = ["BAD_USER_INPUT", "CONFLICT"].includes(errorCodeOf(failure) ?? "");
      return key && aboutTheName ? { name: { key, params: messageParamsOf(failure) } } : {};
    },
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
        await moveFiles({ variables: { ids: files.map((file) => file.id), targetId: destinationId } });
      } catch (failure) {
        throw refused(failure, files);
      }
      list.selection.clear();
      notify.success("operated");
    },
    /** The server starts parsing the new documents itself. */
    async link(files: FileRowFragment[], knowledgeBaseIds: string[]) {
      try {
        // A folder's files are linked too: the rows below it are read again when opened.
        await linkFiles({ variables: { fileIds: files.map((file) => file.id), knowledgeBaseIds }, refetchQueries: files.some(isFolder) ? [FilesDocument] : [] });
      } catch (failure) {
        throw refused(failure, files);
      }
      list.selection.clear();
      notify.success("operated");
    },
    /** The confirmation and toast actions report their failure themselves. */
    async unlink(file: FileRowFragment, link: FileLinkFieldsFragment) {
      try {
        await unlinkFile({ variables: { fileId: file.id, knowledgeBaseId: link.id } });
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
        await downloadFile(fileRoutes.download(file.id), file.name);
      } catch (failure) {
        notify.error(describeTransferError(failure, (key) => t(key), (key) => i18n.exists(key), "errors.fileError"));
      }
    },
  };
}

export type FileActions = ReturnType<typeof useFileActions>;

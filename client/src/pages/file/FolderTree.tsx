import { Box, Center, HStack, Icon, IconButton, Spinner, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuChevronDown, LuChevronRight, LuFolder, LuFolderLock, LuFolderOpen, LuHouse } from "react-icons/lu";
import { LoadFailed } from "../../components/LoadFailed";
import { FileFoldersDocument, type FolderNodeFragment } from "../../graphql/gql/graphql";

interface FolderTreeProps {
  /** The highlighted folder. */
  selectedId: string | null;
  onSelect: (folderId: string) => void;
  /** Folders opened from the start, e.g. the way to the open folder, so that it shows in the tree. */
  openPath?: string[];
  /** Folders that cannot be chosen, with everything below them (a folder cannot move into itself). */
  excludedIds?: ReadonlySet<string>;
  /** Read-only folders (`.knowledgebase`) cannot be chosen as a destination. */
  readOnlyChoosable?: boolean;
  testId: string;
}

/** A folder tree whose branches load when opened: the page's side panel, and the destination picker of a move. */
export function FolderTree({ selectedId, onSelect, openPath = [], excludedIds, readOnlyChoosable = true, testId }: FolderTreeProps) {
  // Without a parent, the server answers the root folder itself.
  const root = useQuery(FileFoldersDocument, { variables: { parentId: null } });
  const rootFolder = root.data?.fileFolders[0];
  if (!rootFolder) {
    return root.error ? (
      <LoadFailed py="4" error={root.error} onRetry={() => void root.refetch()} />
    ) : (
      <Center py="3">
        <Spinner size="sm" color="fg.muted" />
      </Center>
    );
  }
  return (
    <Stack gap="0" role="tree" data-testid={testId} fontSize="sm">
      <FolderBranch folder={rootFolder} depth={0} root tree={{ selectedId: selectedId ?? rootFolder.id, onSelect, openPath, excludedIds, readOnlyChoosable, testId }} />
    </Stack>
  );
}

interface TreeContext {
  selectedId: string;
  onSelect: (folderId: string) => void;
  openPath: string[];
  excludedIds?: ReadonlySet<string>;
  readOnlyChoosable: boolean;
  testId: string;
}

function FolderBranch({ folder, depth, root, tree }: { folder: FolderNodeFragment; depth: number; root?: boolean; tree: TreeContext }) {
  const { t } = useTranslation();
  const name = root ? t("file.root") : folder.name;
  const onPath = tree.openPath.includes(folder.id);
  const [open, setOpen] = useState(root || onPath);
  // The open folder changes from outside (breadcrumbs, a folder opened in the table): the way to it opens.
  useEffect(() => {
    if (onPath) setOpen(true);
  }, [onPath]);
  const children = useQuery(FileFoldersDocument, { variables: { parentId: folder.id }, skip: !open || !folder.hasChildFolders });
  const excluded = tree.excludedIds?.has(folder.id) ?? false;
  const choosable = !excluded && (tree.readOnlyChoosable || !folder.readOnly);
  const selected = tree.selectedId === folder.id;
  const FolderIcon = root ? LuHouse : folder.readOnly ? LuFolderLock : open ? LuFolderOpen : LuFolder;

  return (
    <Box role="treeitem" aria-expanded={folder.hasChildFolders ? open : undefined} aria-selected={selected} aria-disabled={!choosable || undefined}>
      <HStack
        gap="1"
        ps={`${depth * 14 + 4}px`}
        pe="2"
        py="1"
        rounded="l1"
        bg={selected ? "brand.subtle" : undefined}
        color={!choosable ? "fg.subtle" : selected ? "brand.fg" : undefined}
        _hover={choosable && !selected ? { bg: "bg.muted" } : undefined}
        cursor={choosable ? "pointer" : "not-allowed"}
        onClick={() => choosable && tree.onSelect(folder.id)}
        data-testid={`${tree.testId}-node`}
        data-name={root ? "/" : folder.name}
        data-selected={selected || undefined}
      >
        {folder.hasChildFolders && !root ? (
          <IconButton
            size="2xs"
            variant="ghost"
            aria-label={open ? t("file.tree.collapse", { name }) : t("file.tree.expand", { name })}
            onClick={(event) => {
              event.stopPropagation();
              setOpen(!open);
            }}
            data-testid={`${tree.testId}-toggle`}
          >
            {open ? <LuChevronDown /> : <LuChevronRight />}
          </IconButton>
        ) : (
          <Box width="6" flexShrink={0} />
        )}
        <Icon as={FolderIcon} flexShrink={0} color={selected ? "brand.fg" : "fg.muted"} />
        <Text truncate title={name} fontWeight={selected ? "semibold" : undefined}>
          {name}
        </Text>
      </HStack>
      {open && folder.hasChildFolders && (
        <Box role="group">
          {children.loading && !children.data ? (
            <Center py="1" ps={`${(depth + 1) * 14}px`} justifyContent="flex-start">
              <Spinner size="xs" color="fg.muted" />
            </Center>
          ) : (
            (children.data?.fileFolders ?? []).map((child) => <FolderBranch key={child.id} folder={child} depth={depth + 1} tree={{ ...tree, excludedIds: excluded ? new Set([...(tree.excludedIds ?? []), child.id]) : tree.excludedIds }} />)
          )}
        </Box>
      )}
    </Box>
  );
}

import { Breadcrumb, chakra, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuHouse } from "react-icons/lu";

export interface FolderStep {
  id: string;
  name: string;
}

/** The way from the root to the open folder; each step but the last opens its folder. */
export function Breadcrumbs({ path, onOpen }: { path: FolderStep[]; onOpen: (folderId: string | null) => void }) {
  const { t } = useTranslation();
  // The root is the first step of the server's path; it is shown as "Files" rather than its name "/".
  const [root, ...folders] = path;
  return (
    <Breadcrumb.Root size="sm" data-testid="file-breadcrumbs" minWidth="0">
      <Breadcrumb.List flexWrap="wrap">
        <Breadcrumb.Item>
          {folders.length === 0 ? (
            <Breadcrumb.CurrentLink display="inline-flex" gap="1.5" alignItems="center">
              <LuHouse /> {t("file.root")}
            </Breadcrumb.CurrentLink>
          ) : (
            <Breadcrumb.Link asChild>
              <chakra.button type="button" display="inline-flex" gap="1.5" alignItems="center" onClick={() => onOpen(root?.id ?? null)} data-testid="file-breadcrumb">
                <LuHouse /> {t("file.root")}
              </chakra.button>
            </Breadcrumb.Link>
          )}
        </Breadcrumb.Item>
        {folders.map((folder, index) => (
          <BreadcrumbStep key={folder.id} folder={folder} last={index === folders.length - 1} onOpen={onOpen} />
        ))}
      </Breadcrumb.List>
    </Breadcrumb.Root>
  );
}

function BreadcrumbStep({ folder, last, onOpen }: { folder: FolderStep; last: boolean; onOpen: (folderId: string) => void }) {
  return (
    <>
      <Breadcrumb.Separator />
      <Breadcrumb.Item minWidth="0">
        {last ? (
          <Breadcrumb.CurrentLink data-testid="file-breadcrumb-current">
            <Text truncate maxWidth="48" title={folder.name}>
              {folder.name}
            </Text>
          </Breadcrumb.CurrentLink>
        ) : (
          <Breadcrumb.Link asChild>
            <chakra.button type="button" onClick={() => onOpen(folder.id)} data-testid="file-breadcrumb">
              <Text truncate maxWidth="40" title={folder.name}>
                {folder.name}
              </Text>
            </chakra.button>
          </Breadcrumb.Link>
        )}
      </Breadcrumb.Item>
    </>
  );
}

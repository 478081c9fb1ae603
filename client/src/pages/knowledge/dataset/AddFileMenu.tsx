import { Button, Menu, Portal } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuFilePlus, LuGlobe, LuPlus, LuUpload } from "react-icons/lu";

export type AddFileKind = "upload" | "empty" | "crawl";

/** The "Add file" menu above the document list: upload, an empty file, or a crawled web page. */
export function AddFileMenu({ onAdd }: { onAdd: (kind: AddFileKind) => void }) {
  const { t } = useTranslation();
  return (
    <Menu.Root positioning={{ placement: "bottom-end" }}>
      <Menu.Trigger asChild>
        <Button colorPalette="brand" data-testid="add-file">
          <LuPlus /> {t("kb.dataset.addFile")}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.Item value="upload" onSelect={() => onAdd("upload")} data-testid="add-upload">
              <LuUpload /> {t("kb.dataset.upload")}
            </Menu.Item>
            <Menu.Item value="empty" onSelect={() => onAdd("empty")} data-testid="add-empty">
              <LuFilePlus /> {t("kb.dataset.emptyFile")}
            </Menu.Item>
            <Menu.Item value="crawl" onSelect={() => onAdd("crawl")} data-testid="add-crawl">
              <LuGlobe /> {t("kb.dataset.webCrawl")}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

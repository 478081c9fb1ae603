import { IconButton, Menu, Portal } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCopy, LuDownload, LuEllipsis, LuPencil, LuTrash2, LuUserRoundX, LuUsers } from "react-icons/lu";
import type { FlowCardFragment } from "../../../graphql/gql/graphql";

export type FlowAction = "export" | "duplicate" | "rename" | "share" | "delete";

interface FlowMenuProps {
  flow: FlowCardFragment;
  /** Sharing is its maker's choice: a team member who was shared a flow does not unshare it. */
  canShare: boolean;
  onAction: (action: FlowAction, flow: FlowCardFragment) => void;
}

/** The ⋯ menu of a flow in the list. */
export function FlowMenu({ flow, canShare, onAction }: FlowMenuProps) {
  const { t } = useTranslation();
  const shared = flow.permission === "team";
  return (
    <Menu.Root positioning={{ placement: "bottom-end" }}>
      <Menu.Trigger asChild>
        <IconButton variant="ghost" size="sm" aria-label={t("flow.list.actions")} position="relative" zIndex="1" data-testid="flow-menu">
          <LuEllipsis />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="52">
            <Menu.Item value="rename" onSelect={() => onAction("rename", flow)} data-testid="flow-rename">
              <LuPencil /> {t("flow.list.rename")}
            </Menu.Item>
            <Menu.Item value="duplicate" onSelect={() => onAction("duplicate", flow)} data-testid="flow-duplicate">
              <LuCopy /> {t("flow.list.duplicate")}
            </Menu.Item>
            <Menu.Item value="export" onSelect={() => onAction("export", flow)} data-testid="flow-export">
              <LuDownload /> {t("flow.list.export")}
            </Menu.Item>
            {canShare && (
              <Menu.Item value="share" onSelect={() => onAction("share", flow)} data-testid="flow-share">
                {shared ? <LuUserRoundX /> : <LuUsers />} {shared ? t("flow.list.unshare") : t("flow.list.share")}
              </Menu.Item>
            )}
            <Menu.Separator />
            <Menu.Item value="delete" color="fg.error" _hover={{ bg: "bg.error", color: "fg.error" }} onSelect={() => onAction("delete", flow)} data-testid="flow-delete">
              <LuTrash2 /> {t("common.delete")}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

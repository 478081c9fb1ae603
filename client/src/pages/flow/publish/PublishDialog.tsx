import { CloseButton, Dialog, Portal, Tabs } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuCode, LuGlobe } from "react-icons/lu";
import { ConfirmDeleteDialog } from "../../../components/ConfirmDeleteDialog";
import { useApiTokens } from "../../../hooks/useApiTokens";
import { ApiPanel } from "./ApiPanel";
import { EmbedPanel } from "./EmbedPanel";
import { useFlowShare } from "./useFlowShare";

export interface PublishDialogProps {
  /** null: closed. */
  flow: { id: string; title: string } | null;
  onClose: () => void;
}

/**
 * Publishing a flow (§2, API publishing): its id and service API endpoints with ready `curl` commands, and the
 * assistant's embed options (share page, iframe, floating widget) so that it can be chatted with signed out.
 */
export function PublishDialog({ flow, onClose }: PublishDialogProps) {
  const { t } = useTranslation();
  const share = useFlowShare(flow?.id ?? null);
  // One for both tabs: a key made while sharing is the one the API tab's commands then use.
  const keys = useApiTokens({ skip: flow === null });
  const [revoking, setRevoking] = useState(false);
  // Kept here: the dialog closes behind the revoke confirmation and comes back on the tab it was on.
  const [tab, setTab] = useState("api");

  return (
    <>
      <Dialog.Root open={flow !== null && !revoking} onOpenChange={(event) => !event.open && onClose()} placement="center" size="xl" scrollBehavior="inside" lazyMount unmountOnExit>
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="publish-dialog">
              <Dialog.Header>
                <Dialog.Title>{t("flow.publish.titleOf", { name: flow?.title ?? "" })}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body pb="6">
                {flow && (
                  <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value)} variant="line" colorPalette="brand" lazyMount>
                    <Tabs.List mb="4">
                      <Tabs.Trigger value="api" data-testid="publish-tab-api">
                        <LuCode /> {t("flow.publish.api")}
                      </Tabs.Trigger>
                      <Tabs.Trigger value="embed" data-testid="publish-tab-embed">
                        <LuGlobe /> {t("flow.publish.embed")}
                      </Tabs.Trigger>
                    </Tabs.List>
                    <Tabs.Content value="api" pt="0">
                      <ApiPanel flowId={flow.id} keys={keys} />
                    </Tabs.Content>
                    <Tabs.Content value="embed" pt="0">
                      <EmbedPanel flow={flow} share={share} keys={keys} onRevoke={() => setRevoking(true)} />
                    </Tabs.Content>
                  </Tabs.Root>
                )}
              </Dialog.Body>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t("common.close")} data-testid="publish-close" />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
      <ConfirmDeleteDialog open={revoking} subject={t("flow.publish.revokeSubject")} onClose={() => setRevoking(false)} onConfirm={share.revoke} />
    </>
  );
}

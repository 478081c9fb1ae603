import { Button, Center, CloseButton, Drawer, HStack, Portal, Spinner, Stack, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuRotateCcw } from "react-icons/lu";
import { LoadFailed } from "../../../components/LoadFailed";
import { describeError } from "../../../errors";
import { useFormatters } from "../../../format";
import { FlowVersionsDocument, RestoreFlowVersionDocument, type RestoreFlowVersionMutation } from "../../../graphql/gql/graphql";

interface VersionsDrawerProps {
  flowId: string;
  open: boolean;
  onClose: () => void;
  /** Saves pending edits first, so that restoring never loses them (they become a version too). */
  beforeRestore: () => Promise<boolean>;
  onRestored: (flow: RestoreFlowVersionMutation["restoreFlowVersion"]) => void;
}

/** The flow's saved versions, newest first; restoring one puts its graph back as a new save (itself a version). */
export function VersionsDrawer({ flowId, open, onClose, beforeRestore, onRestored }: VersionsDrawerProps) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const versions = useQuery(FlowVersionsDocument, { variables: { flowId }, skip: !open, fetchPolicy: "network-only" });
  const [restore, restoring] = useMutation(RestoreFlowVersionDocument);
  const [failure, setFailure] = useState<string | null>(null);

  async function restoreVersion(id: string) {
    setFailure(null);
    if (!(await beforeRestore())) return;
    try {
      const { data } = await restore({ variables: { id } });
      if (data) onRestored(data.restoreFlowVersion);
      onClose();
    } catch (error) {
      setFailure(describeError(error, i18n));
    }
  }

  const list = versions.data?.flowVersions ?? [];
  return (
    <Drawer.Root open={open} onOpenChange={(event) => !event.open && onClose()} placement="end" size="sm">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="flow-versions-drawer">
            <Drawer.Header>
              <Drawer.Title>{t("flow.editor.versions")}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Text fontSize="sm" color="fg.muted" mb="4">
                {t("flow.editor.versionsHelp")}
              </Text>
              {failure && (
                <Text color="fg.error" fontSize="sm" mb="3" role="alert">
                  {failure}
                </Text>
              )}
              {versions.error ? (
                <LoadFailed error={versions.error} onRetry={() => void versions.refetch()} />
              ) : versions.loading && list.length === 0 ? (
                <Center py="10">
                  <Spinner color="brand.solid" />
                </Center>
              ) : (
                <Stack gap="2">
                  {list.map((version, index) => (
                    <HStack key={version.id} p="3" borderWidth="1px" rounded="md" justify="space-between" data-testid="flow-version">
                      <Stack gap="0" minWidth="0">
                        <Text fontSize="sm" fontWeight="medium">
                          {format.dateTime(version.createdAt)}
                        </Text>
                        <Text fontSize="xs" color="fg.muted" truncate>
                          {version.title} · {t("flow.editor.componentCount", { count: Object.keys((version.dsl.components as object | undefined) ?? {}).length })}
                          {index === 0 ? ` · ${t("flow.editor.currentVersion")}` : ""}
                        </Text>
                      </Stack>
                      {index > 0 && (
                        <Button size="xs" variant="outline" loading={restoring.loading} onClick={() => void restoreVersion(version.id)} data-testid="flow-version-restore">
                          <LuRotateCcw /> {t("flow.editor.restore")}
                        </Button>
                      )}
                    </HStack>
                  ))}
                  {list.length === 0 && <Text color="fg.muted">{t("flow.editor.noVersions")}</Text>}
                </Stack>
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

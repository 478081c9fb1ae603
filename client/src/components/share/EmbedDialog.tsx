import { Alert, Button, Center, CloseButton, Dialog, Portal, Spinner, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuKeyRound, LuLink2Off, LuShare2 } from "react-icons/lu";
import { ConfirmDeleteDialog } from "../ConfirmDeleteDialog";
import { ShareSnippets } from "./ShareSnippets";
import { useAssistantShare, type ShareFailure } from "./useAssistantShare";

const NEEDS_API_TOKEN = "errors.createApiTokenFirst";

interface EmbedDialogProps {
  assistant: { id: string; name: string } | null;
  onClose: () => void;
  onOpenApiKeys: () => void;
}

/** §1: embed an assistant as a full iframe, a partial embed (the floating widget) or a browser extension. */
export function EmbedDialog({ assistant, onClose, onOpenApiKeys }: EmbedDialogProps) {
  const { t } = useTranslation();
  const share = useAssistantShare(assistant?.id ?? null);
  const [revoking, setRevoking] = useState(false);
  const [locale, setLocale] = useState("");
  const { sharedId } = share;

  return (
    <>
      <Dialog.Root open={assistant !== null && !revoking} onOpenChange={(event) => !event.open && onClose()} placement="center" size="lg" scrollBehavior="inside">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="embed-dialog">
              <Dialog.Header>
                <Dialog.Title>{t("chat.embed.titleOf", { name: assistant?.name ?? "" })}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                {share.loadingFirst ? (
                  <Center py="12">
                    <Spinner color="brand.solid" />
                  </Center>
                ) : share.readFailure ? (
                  <Text color="fg.error">{share.readFailure}</Text>
                ) : !sharedId ? (
                  <NotShared failure={share.failure} sharing={share.sharing} onShare={() => void share.share()} onOpenApiKeys={onOpenApiKeys} />
                ) : (
                  <ShareSnippets sharedId={sharedId} name={assistant?.name} locale={locale} onLocale={setLocale} />
                )}
              </Dialog.Body>
              <Dialog.Footer justifyContent="space-between">
                {sharedId ? (
                  <Button variant="ghost" colorPalette="red" size="sm" onClick={() => setRevoking(true)} data-testid="embed-revoke">
                    <LuLink2Off /> {t("chat.embed.revoke")}
                  </Button>
                ) : (
                  <span />
                )}
                <Button variant="outline" size="sm" onClick={onOpenApiKeys} data-testid="embed-api-keys">
                  <LuKeyRound /> {t("api.keys")}
                </Button>
              </Dialog.Footer>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t("common.close")} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
      <ConfirmDeleteDialog open={revoking} subject={t("chat.embed.revokeSubject")} onClose={() => setRevoking(false)} onConfirm={share.revoke} />
    </>
  );
}

interface NotSharedProps {
  failure: ShareFailure | null;
  sharing: boolean;
  onShare: () => void;
  onOpenApiKeys: () => void;
}

/** Not shared yet: the share button, and why the last attempt failed (with a way to create the API key it needs). */
function NotShared({ failure, sharing, onShare, onOpenApiKeys }: NotSharedProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="4" align="flex-start" data-testid="embed-not-shared">
      <Text fontSize="sm" color="fg.muted">
        {t("chat.embed.notShared")}
      </Text>
      {failure && (
        <Alert.Root status="warning" variant="subtle" data-testid="embed-error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{failure.text}</Alert.Title>
            {failure.key === NEEDS_API_TOKEN && (
              <Alert.Description>
                <Button size="xs" variant="outline" mt="2" onClick={onOpenApiKeys} data-testid="embed-open-api-keys">
                  <LuKeyRound /> {t("chat.embed.createApiKey")}
                </Button>
              </Alert.Description>
            )}
          </Alert.Content>
        </Alert.Root>
      )}
      <Button colorPalette="brand" loading={sharing} onClick={onShare} data-testid="embed-share">
        <LuShare2 /> {t("chat.embed.share")}
      </Button>
    </Stack>
  );
}

import { Alert, Button, Center, CloseButton, Dialog, Flex, HStack, Link, NativeSelect, Portal, Spinner, Stack, Tabs, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuExternalLink, LuKeyRound, LuLink2Off, LuShare2 } from "react-icons/lu";
import { ConfirmDeleteDialog } from "../../../components/ConfirmDeleteDialog";
import { notify } from "../../../components/toaster";
import { describeError, messageKeyOf } from "../../../errors";
import { LANGUAGES } from "../../../languages";
import { AssistantShareDocument, RevokeAssistantShareDocument, ShareAssistantDocument } from "../../../graphql/gql/graphql";
import { extensionFiles, iframeSnippet, shareUrl, widgetSnippet } from "./snippets";
import { SnippetBlock } from "./SnippetBlock";

const NEEDS_API_TOKEN = "errors.createApiTokenFirst";

interface EmbedDialogProps {
  assistant: { id: string; name: string } | null;
  onClose: () => void;
  onOpenApiKeys: () => void;
}

/** §1: embed an assistant as a full iframe, a partial embed (the floating widget) or a browser extension. */
export function EmbedDialog({ assistant, onClose, onOpenApiKeys }: EmbedDialogProps) {
  const { t, i18n } = useTranslation();
  const assistantId = assistant?.id ?? "";
  const { data, loading, error } = useQuery(AssistantShareDocument, { variables: { assistantId }, skip: !assistant, fetchPolicy: "network-only" });
  const [share, { loading: sharing }] = useMutation(ShareAssistantDocument, { refetchQueries: [AssistantShareDocument] });
  const [revoke] = useMutation(RevokeAssistantShareDocument, { refetchQueries: [AssistantShareDocument] });
  const [failure, setFailure] = useState<{ key?: string; text: string } | null>(null);
  const [revoking, setRevoking] = useState(false);
  const [locale, setLocale] = useState("");
  const origin = window.location.origin;
  const sharedId = data?.assistantShare?.sharedId;

  async function createShare() {
    setFailure(null);
    try {
      await share({ variables: { assistantId } });
    } catch (failed) {
      setFailure({ key: messageKeyOf(failed), text: describeError(failed, i18n) });
    }
  }

  async function revokeShare() {
    try {
      await revoke({ variables: { assistantId } });
      notify.success("deleted");
    } catch (failed) {
      notify.error(describeError(failed, i18n));
    }
  }

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
                {loading && !data ? (
                  <Center py="12">
                    <Spinner color="brand.solid" />
                  </Center>
                ) : error && !data ? (
                  <Text color="fg.error">{describeError(error, i18n)}</Text>
                ) : !sharedId ? (
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
                    <Button colorPalette="brand" loading={sharing} onClick={() => void createShare()} data-testid="embed-share">
                      <LuShare2 /> {t("chat.embed.share")}
                    </Button>
                  </Stack>
                ) : (
                  <Stack gap="4">
                    <Flex gap="3" align={{ base: "stretch", md: "center" }} direction={{ base: "column", md: "row" }} justify="space-between">
                      <Link href={shareUrl(origin, sharedId, locale || undefined)} target="_blank" rel="noopener" color="brand.fg" fontSize="sm" data-testid="embed-share-link">
                        {t("chat.embed.openSharePage")} <LuExternalLink />
                      </Link>
                      <HStack gap="2">
                        <Text fontSize="sm" color="fg.muted" whiteSpace="nowrap">
                          {t("chat.embed.locale")}
                        </Text>
                        <NativeSelect.Root size="sm" width="44">
                          <NativeSelect.Field value={locale} onChange={(event) => setLocale(event.target.value)} data-testid="embed-locale">
                            <option value="">{t("chat.embed.localeAuto")}</option>
                            {LANGUAGES.map((language) => (
                              <option key={language} value={language}>
                                {t(`language.names.${language}`)}
                              </option>
                            ))}
                          </NativeSelect.Field>
                          <NativeSelect.Indicator />
                        </NativeSelect.Root>
                      </HStack>
                    </Flex>
                    <Tabs.Root defaultValue="full" variant="enclosed" size="sm" colorPalette="brand">
                      <Tabs.List>
                        <Tabs.Trigger value="full" data-testid="embed-tab-full">{t("chat.embed.full")}</Tabs.Trigger>
                        <Tabs.Trigger value="partial" data-testid="embed-tab-partial">{t("chat.embed.partial")}</Tabs.Trigger>
                        <Tabs.Trigger value="extension" data-testid="embed-tab-extension">{t("chat.embed.extension")}</Tabs.Trigger>
                      </Tabs.List>
                      <Tabs.Content value="full">
                        <Stack gap="2">
                          <Text fontSize="sm" color="fg.muted">{t("chat.embed.fullHelp")}</Text>
                          <SnippetBlock label="HTML" text={iframeSnippet(origin, sharedId, locale || undefined)} testId="embed-iframe" />
                        </Stack>
                      </Tabs.Content>
                      <Tabs.Content value="partial">
                        <Stack gap="2">
                          <Text fontSize="sm" color="fg.muted">{t("chat.embed.partialHelp")}</Text>
                          <SnippetBlock label="HTML" text={widgetSnippet(origin, sharedId, locale || undefined)} testId="embed-widget" />
                        </Stack>
                      </Tabs.Content>
                      <Tabs.Content value="extension">
                        <Stack gap="3">
                          <Text fontSize="sm" color="fg.muted">{t("chat.embed.extensionHelp")}</Text>
                          {extensionFiles(origin, sharedId, assistant?.name ?? "Cairn", locale || undefined).map((file) => (
                            <SnippetBlock key={file.name} label={file.name} text={file.text} testId={`embed-extension-${file.name.replace(/\W/g, "-")}`} />
                          ))}
                        </Stack>
                      </Tabs.Content>
                    </Tabs.Root>
                  </Stack>
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
      <ConfirmDeleteDialog open={revoking} subject={t("chat.embed.revokeSubject")} onClose={() => setRevoking(false)} onConfirm={revokeShare} />
    </>
  );
}

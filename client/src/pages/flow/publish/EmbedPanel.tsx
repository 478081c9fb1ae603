import { Alert, Button, Center, Spinner, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuKeyRound, LuLink2Off, LuShare2 } from "react-icons/lu";
import { ShareSnippets } from "../../../components/share/ShareSnippets";
import type { ApiKeys } from "./ApiPanel";
import type { useFlowShare } from "./useFlowShare";

const NEEDS_API_TOKEN = "errors.createApiTokenFirst";

interface EmbedPanelProps {
  flow: { id: string; title: string };
  share: ReturnType<typeof useFlowShare>;
  keys: ApiKeys;
  onRevoke: () => void;
}

/** The same embeddings as an assistant's (a page of its own, an iframe, the floating widget, the extension), for chatting with the flow signed out. */
export function EmbedPanel({ flow, share, keys, onRevoke }: EmbedPanelProps) {
  const { t } = useTranslation();
  const [locale, setLocale] = useState("");
  const { sharedId } = share;

  if (share.loadingFirst) {
    return (
      <Center py="12">
        <Spinner color="brand.solid" />
      </Center>
    );
  }
  if (share.readFailure) return <Text color="fg.error">{share.readFailure}</Text>;
  if (!sharedId) return <NotShared share={share} keys={keys} />;
  return (
    <Stack gap="4" data-testid="publish-embed">
      <ShareSnippets sharedId={sharedId} name={flow.title} kind="flow" locale={locale} onLocale={setLocale} />
      <Button variant="ghost" colorPalette="red" size="sm" alignSelf="flex-start" onClick={onRevoke} data-testid="publish-revoke">
        <LuLink2Off /> {t("chat.embed.revoke")}
      </Button>
    </Stack>
  );
}

/** Not shared yet: the share button, and why the last attempt failed, with the API key it needs made right here (the API tab then shows it). */
function NotShared({ share, keys }: { share: ReturnType<typeof useFlowShare>; keys: ApiKeys }) {
  const { t } = useTranslation();
  const { failure } = share;

  async function createKeyAndShare() {
    if (await keys.create()) await share.share();
  }

  return (
    <Stack gap="4" align="flex-start" data-testid="publish-not-shared">
      <Text fontSize="sm" color="fg.muted">
        {t("flow.publish.notShared")}
      </Text>
      {failure && (
        <Alert.Root status="warning" variant="subtle" data-testid="publish-share-error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{failure.text}</Alert.Title>
            {failure.key === NEEDS_API_TOKEN && (
              <Alert.Description>
                <Button size="xs" variant="outline" mt="2" loading={keys.creating} onClick={() => void createKeyAndShare()} data-testid="publish-share-create-key">
                  <LuKeyRound /> {t("flow.publish.createKeyAndShare")}
                </Button>
              </Alert.Description>
            )}
          </Alert.Content>
        </Alert.Root>
      )}
      <Button colorPalette="brand" loading={share.sharing} onClick={() => void share.share()} data-testid="publish-share">
        <LuShare2 /> {t("flow.publish.share")}
      </Button>
    </Stack>
  );
}

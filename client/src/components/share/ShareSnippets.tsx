import { Flex, HStack, Link, NativeSelect, Stack, Tabs, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuExternalLink } from "react-icons/lu";
import { LANGUAGES } from "../../languages";
import { extensionFiles, iframeSnippet, shareUrl, widgetSnippet, type SharedKind } from "./snippets";
import { SnippetBlock } from "./SnippetBlock";

interface ShareSnippetsProps {
  sharedId: string;
  /** The shared assistant's or flow's name (the browser extension's). */
  name: string | undefined;
  kind?: SharedKind;
  /** The language the shared page opens in; "" lets the visitor's browser choose. */
  locale: string;
  onLocale: (locale: string) => void;
}

/** A shared assistant's or flow's page link and its three embeddings (iframe, widget, browser extension), in a chosen language. */
export function ShareSnippets({ sharedId, name, kind = "assistant", locale, onLocale }: ShareSnippetsProps) {
  const { t } = useTranslation();
  const origin = window.location.origin;
  const chosenLocale = locale || undefined;
  return (
    <Stack gap="4">
      <Flex gap="3" align={{ base: "stretch", md: "center" }} direction={{ base: "column", md: "row" }} justify="space-between">
        <Link href={shareUrl(origin, sharedId, chosenLocale, undefined, kind)} target="_blank" rel="noopener" color="brand.fg" fontSize="sm" data-testid="embed-share-link">
          {t("chat.embed.openSharePage")} <LuExternalLink />
        </Link>
        <HStack gap="2">
          <Text fontSize="sm" color="fg.muted" whiteSpace="nowrap">
            {t("chat.embed.locale")}
          </Text>
          <NativeSelect.Root size="sm" width="44">
            <NativeSelect.Field value={locale} onChange={(event) => onLocale(event.target.value)} data-testid="embed-locale">
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
            <SnippetBlock label="HTML" text={iframeSnippet(origin, sharedId, chosenLocale, kind)} testId="embed-iframe" />
          </Stack>
        </Tabs.Content>
        <Tabs.Content value="partial">
          <Stack gap="2">
            <Text fontSize="sm" color="fg.muted">{t("chat.embed.partialHelp")}</Text>
            <SnippetBlock label="HTML" text={widgetSnippet(origin, sharedId, chosenLocale, kind)} testId="embed-widget" />
          </Stack>
        </Tabs.Content>
        <Tabs.Content value="extension">
          <Stack gap="3">
            <Text fontSize="sm" color="fg.muted">{t("chat.embed.extensionHelp")}</Text>
            {extensionFiles(origin, sharedId, name ?? "Cairn", chosenLocale, kind).map((file) => (
              <SnippetBlock key={file.name} label={file.name} text={file.text} testId={`embed-extension-${file.name.replace(/\W/g, "-")}`} />
            ))}
          </Stack>
        </Tabs.Content>
      </Tabs.Root>
    </Stack>
  );
}

import { Button, Menu, Portal, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuLanguages } from "react-icons/lu";
import { currentLanguage } from "../i18n";
import { LANGUAGES, type Language } from "../languages";

interface LanguageMenuProps {
  /** Called after the interface language changed, e.g. to store it in the signed-in user's profile. */
  onChosen?: (language: Language) => void;
  variant?: "ghost" | "outline";
}

export function LanguageMenu({ onChosen, variant = "ghost" }: LanguageMenuProps) {
  const { t, i18n } = useTranslation();
  const active = currentLanguage();

  async function choose(language: Language) {
    if (language === active) return;
    await i18n.changeLanguage(language);
    onChosen?.(language);
  }

  return (
    <Menu.Root positioning={{ placement: "bottom-end" }}>
      <Menu.Trigger asChild>
        <Button variant={variant} size="sm" px="2" aria-label={t("language.label")} title={t("language.label")} data-testid="language-menu">
          <LuLanguages />
          <Text as="span" fontSize="xs" fontWeight="semibold" display={{ base: "none", sm: "inline" }}>
            {t(`language.short.${active}`)}
          </Text>
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="48">
            <Menu.ItemGroup>
              <Menu.ItemGroupLabel>{t("language.label")}</Menu.ItemGroupLabel>
              <Menu.RadioItemGroup value={active} onValueChange={(event) => void choose(event.value as Language)}>
                {LANGUAGES.map((language) => (
                  <Menu.RadioItem key={language} value={language} data-testid={`language-${language}`}>
                    <Text as="span" lang={language === "zh-TRADITIONAL" ? "zh-TW" : language}>
                      {t(`language.names.${language}`)}
                    </Text>
                    <Menu.ItemIndicator />
                  </Menu.RadioItem>
                ))}
              </Menu.RadioItemGroup>
            </Menu.ItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

import { IconButton, Menu, Portal } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuMonitor, LuMoon, LuSun } from "react-icons/lu";
import { setThemePreference, THEME_PREFERENCES, useColorMode, useThemePreference, type ThemePreference } from "../theme";

const THEME_ICONS: Record<ThemePreference, IconType> = { light: LuSun, dark: LuMoon, system: LuMonitor };

interface ThemeMenuProps {
  /** Called after the theme changed, e.g. to store light or dark as the signed-in user's colour schema. */
  onChosen?: (preference: ThemePreference) => void;
  variant?: "ghost" | "outline";
}

export function ThemeMenu({ onChosen, variant = "ghost" }: ThemeMenuProps) {
  const { t } = useTranslation();
  const preference = useThemePreference();
  const mode = useColorMode();
  function choose(next: ThemePreference) {
    if (next === preference) return;
    setThemePreference(next);
    onChosen?.(next);
  }

  const CurrentIcon = preference === "system" ? LuMonitor : mode === "dark" ? LuMoon : LuSun;
  return (
    <Menu.Root positioning={{ placement: "bottom-end" }}>
      <Menu.Trigger asChild>
        <IconButton variant={variant} size="sm" aria-label={t("theme.label")} title={t("theme.label")} data-testid="theme-menu">
          <CurrentIcon />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="44">
            <Menu.ItemGroup>
              <Menu.ItemGroupLabel>{t("theme.label")}</Menu.ItemGroupLabel>
              <Menu.RadioItemGroup value={preference} onValueChange={(event) => choose(event.value as ThemePreference)}>
                {THEME_PREFERENCES.map((option) => {
                  const OptionIcon = THEME_ICONS[option];
                  return (
                    <Menu.RadioItem key={option} value={option} data-testid={`theme-${option}`}>
                      <OptionIcon />
                      {t(`theme.${option}`)}
                      <Menu.ItemIndicator />
                    </Menu.RadioItem>
                  );
                })}
              </Menu.RadioItemGroup>
            </Menu.ItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

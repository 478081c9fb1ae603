import { Button, Clipboard, IconButton } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCheck, LuCopy } from "react-icons/lu";

/** Copies `value`; the icon turns into a tick for a moment. `iconOnly` for tight places. */
export function CopyButton({ value, iconOnly = false, testId }: { value: string; iconOnly?: boolean; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Clipboard.Root value={value} timeout={1500}>
      <Clipboard.Trigger asChild>
        {iconOnly ? (
          <IconButton variant="ghost" size="sm" aria-label={t("common.copy")} title={t("common.copy")} data-testid={testId}>
            <Clipboard.Indicator copied={<LuCheck />}>
              <LuCopy />
            </Clipboard.Indicator>
          </IconButton>
        ) : (
          <Button variant="outline" size="sm" data-testid={testId}>
            <Clipboard.Indicator copied={<LuCheck />}>
              <LuCopy />
            </Clipboard.Indicator>
            <Clipboard.Context>{(clipboard) => (clipboard.copied ? t("common.copied") : t("common.copy"))}</Clipboard.Context>
          </Button>
        )}
      </Clipboard.Trigger>
    </Clipboard.Root>
  );
}

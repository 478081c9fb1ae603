import { Button, Center, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuRefreshCw } from "react-icons/lu";
import { describeError } from "../errors";

interface LoadFailedProps {
  error: unknown;
  onRetry: () => void;
  /** The vertical room it takes, to match the content it stands in for. */
  py?: string;
}

/** A list or page could not be read: why, in the user's language, and a retry. */
export function LoadFailed({ error, onRetry, py = "16" }: LoadFailedProps) {
  const { t, i18n } = useTranslation();
  return (
    <Center py={py} flexDirection="column" gap="3" role="alert">
      <Text color="fg.muted">{describeError(error, i18n)}</Text>
      <Button size="sm" variant="outline" onClick={onRetry}>
        <LuRefreshCw /> {t("common.retry")}
      </Button>
    </Center>
  );
}

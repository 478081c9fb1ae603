import { Alert, HStack, Progress, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../format";
import type { UploadPhase } from "./useUploadChoice";

interface UploadStatusProps {
  phase: UploadPhase;
  /** Why §9's limits block the upload, one line a reason; none when they do not. */
  limitProblems: string[];
  uploadingText: string;
  testIds: { limit: string; progress: string; failed: string };
}

/** Why the upload is blocked (§8's 413 text), how far it got, or why it failed. */
export function UploadStatus({ phase, limitProblems, uploadingText, testIds }: UploadStatusProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const percent = phase.state === "uploading" ? Math.round(phase.fraction * 100) : 0;
  return (
    <>
      {limitProblems.length > 0 && (
        <Alert.Root status="error" variant="subtle" data-testid={testIds.limit}>
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t("httpStatus.413")}</Alert.Title>
            <Alert.Description>
              <Stack gap="1">
                {limitProblems.map((problem) => (
                  <Text key={problem}>{problem}</Text>
                ))}
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {phase.state === "uploading" && (
        <Stack gap="1.5" data-testid={testIds.progress}>
          <HStack justify="space-between" fontSize="sm">
            <Text>{uploadingText}</Text>
            <Text color="fg.muted">{format.number(percent)}%</Text>
          </HStack>
          <Progress.Root value={percent} size="sm" colorPalette="brand">
            <Progress.Track rounded="full">
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        </Stack>
      )}
      {phase.state === "failed" && (
        <Alert.Root status="error" variant="subtle" data-testid={testIds.failed}>
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t("errors.uploadFailed")}</Alert.Title>
            <Alert.Description>{phase.reason}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </>
  );
}

import { Alert, HStack, Progress, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { MAX_FILES_PER_UPLOAD } from "../../../documents/documentTransfer";
import { useFormatters } from "../../../format";
import type { Upload } from "./useUpload";

/** Why the upload is blocked, how far it got, or why it failed. */
export function UploadStatus({ upload }: { upload: Upload }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { phase, tooMany, tooLarge } = upload;
  return (
    <>
      {(tooMany || tooLarge.length > 0) && (
        <Alert.Root status="error" variant="subtle" data-testid="upload-limit-error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t("httpStatus.413")}</Alert.Title>
            <Alert.Description>
              {tooMany
                ? t("kb.upload.tooMany", { count: upload.files.length, max: MAX_FILES_PER_UPLOAD })
                : t("kb.upload.tooLarge", { names: tooLarge.map((file) => file.name).join(", "), size: "10 MB" })}
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}

      {phase.state === "uploading" && (
        <Stack gap="1.5" data-testid="upload-progress">
          <HStack justify="space-between" fontSize="sm">
            <Text>{t("kb.upload.uploading")}</Text>
            <Text color="fg.muted">{format.number(Math.round(phase.fraction * 100))}%</Text>
          </HStack>
          <Progress.Root value={Math.round(phase.fraction * 100)} size="sm" colorPalette="brand">
            <Progress.Track rounded="full">
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        </Stack>
      )}
      {phase.state === "failed" && (
        <Alert.Root status="error" variant="subtle" data-testid="upload-failed">
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

import { Alert, Box, Button, CloseButton, Code, Dialog, HStack, Portal, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "./CopyButton";

/** Shows a new API key the one time the server hands it out. */
export function CreatedTokenDialog({ token, onClose }: { token: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={token !== null} onOpenChange={(event) => !event.open && onClose()} placement="center" size="lg" closeOnInteractOutside={false}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="created-token-dialog">
            <Dialog.Header>
              <Dialog.Title>{t("api.createdTitle")}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Alert.Root status="warning" variant="subtle">
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Title>{t("api.onceTitle")}</Alert.Title>
                    <Alert.Description>{t("api.onceDescription")}</Alert.Description>
                  </Alert.Content>
                </Alert.Root>
                <Box>
                  <Text fontSize="sm" fontWeight="medium" mb="2">
                    {t("api.yourKey")}
                  </Text>
                  <HStack gap="2" align="stretch">
                    <Code
                      flex="1"
                      px="3"
                      py="2.5"
                      fontSize="sm"
                      wordBreak="break-all"
                      whiteSpace="normal"
                      colorPalette="brand"
                      variant="surface"
                      data-testid="new-api-token"
                    >
                      {token}
                    </Code>
                    <CopyButton value={token ?? ""} testId="copy-new-token" />
                  </HStack>
                </Box>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="brand" onClick={onClose} data-testid="close-created-token">
                {t("api.savedIt")}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t("common.close")} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

import { Box, Button, Center, CloseButton, Code, Dialog, Flex, HStack, Icon, IconButton, Link, Portal, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuExternalLink, LuKeyRound, LuPlus, LuTrash2 } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { ConfirmDeleteDialog } from "../../../components/ConfirmDeleteDialog";
import { describeError } from "../../../errors";
import { useFormatters } from "../../../format";
import { useCurrentUser } from "../../../session/useCurrentUser";
import { CreatedTokenDialog } from "../../../components/CreatedTokenDialog";
import { useApiTokens } from "../../../hooks/useApiTokens";

/** The workspace's API keys, as on the settings' API page: sharing an assistant needs one (§5). */
export function ApiKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const { data, tokens, loading, error, creating, create, remove, createdToken, setCreatedToken, deleting, setDeleting } = useApiTokens({ skip: !open });

  return (
    <>
      <Dialog.Root open={open && createdToken === null} onOpenChange={(event) => !event.open && onClose()} placement="center" size="md">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="api-key-dialog">
              <Dialog.Header>
                <Dialog.Title>{t("api.keys")}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Text fontSize="sm" color="fg.muted">
                    {t("chat.apiKeys.hint")}
                  </Text>
                  <Box borderWidth="1px" rounded="l2" overflow="hidden">
                    {loading && !data ? (
                      <Stack p="4" gap="2">
                        <Skeleton height="5" />
                        <Skeleton height="5" />
                      </Stack>
                    ) : error && !data ? (
                      <Text p="4" color="fg.error" fontSize="sm">
                        {describeError(error, i18n)}
                      </Text>
                    ) : tokens.length === 0 ? (
                      <Center py="8" px="4" flexDirection="column" gap="2" textAlign="center" data-testid="api-key-empty">
                        <Icon as={LuKeyRound} color="fg.muted" />
                        <Text fontSize="sm" color="fg.muted">
                          {t("errors.createApiTokenFirst")}
                        </Text>
                      </Center>
                    ) : (
                      tokens.map((token) => (
                        <Flex key={token.id} align="center" gap="3" px="3" py="2" borderBottomWidth="1px" borderColor="border.muted" _last={{ borderBottomWidth: 0 }} data-testid="api-key-row">
                          <Icon as={LuKeyRound} color="fg.subtle" />
                          <Code variant="plain" fontSize="sm" flex="1">
                            {token.hint}
                          </Code>
                          <Text fontSize="xs" color="fg.muted">
                            {format.dateTime(token.createdAt)}
                          </Text>
                          <IconButton size="xs" variant="ghost" colorPalette="red" aria-label={t("common.delete")} onClick={() => setDeleting(token)}>
                            <LuTrash2 />
                          </IconButton>
                        </Flex>
                      ))
                    )}
                  </Box>
                  <HStack justify="space-between">
                    <Link asChild fontSize="sm" color="brand.fg">
                      <RouterLink to="/user-setting/api">
                        {t("chat.apiKeys.manage")} <LuExternalLink />
                      </RouterLink>
                    </Link>
                    <Button size="sm" colorPalette="brand" loading={creating} onClick={() => void create()} data-testid="api-key-create">
                      <LuPlus /> {t("api.create")}
                    </Button>
                  </HStack>
                </Stack>
              </Dialog.Body>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t("common.close")} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
      <CreatedTokenDialog token={createdToken} onClose={() => setCreatedToken(null)} />
      <ConfirmDeleteDialog open={deleting !== null} subject={deleting?.hint} onClose={() => setDeleting(null)} onConfirm={() => (deleting ? remove(deleting) : undefined)} />
    </>
  );
}

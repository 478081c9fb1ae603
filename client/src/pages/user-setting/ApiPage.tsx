import { Badge, Box, Button, Center, Code, Flex, HStack, Icon, IconButton, Skeleton, Stack, Table, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuKeyRound, LuPlus, LuTrash2 } from "react-icons/lu";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { CopyButton } from "../../components/CopyButton";
import { LoadFailed } from "../../components/LoadFailed";
import { useFormatters } from "../../format";
import { useCurrentUser } from "../../session/useCurrentUser";
import { CreatedTokenDialog } from "../../components/CreatedTokenDialog";
import { CreateTokenDialog } from "./CreateTokenDialog";
import type { ApiTokenRowFragment } from "../../graphql/gql/graphql";
import { SettingsCard } from "./SettingsCard";
import { useApiTokens } from "../../hooks/useApiTokens";

function ServiceAddress() {
  const { t } = useTranslation();
  const address = `${window.location.origin}/api/v1`;
  return (
    <SettingsCard py={{ base: "4", md: "5" }}>
      <Flex gap="4" align={{ base: "stretch", md: "center" }} direction={{ base: "column", md: "row" }}>
        <Stack gap="0.5" flex="1">
          <Text fontWeight="semibold">{t("api.address")}</Text>
          <Text fontSize="sm" color="fg.muted">
            {t("api.addressHint")}
          </Text>
        </Stack>
        <HStack gap="1" bg="bg.subtle" borderWidth="1px" rounded="l2" ps="3" pe="1" py="1">
          <Code variant="plain" fontSize="sm" data-testid="api-address">
            {address}
          </Code>
          <CopyButton value={address} iconOnly />
        </HStack>
      </Flex>
    </SettingsCard>
  );
}

function TokenTable({ tokens, onDelete }: { tokens: ApiTokenRowFragment[]; onDelete: (token: ApiTokenRowFragment) => void }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  return (
    <Table.Root size="md" interactive data-testid="api-token-table">
      <Table.Header>
        <Table.Row bg="bg.subtle">
          <Table.ColumnHeader>{t("api.key")}</Table.ColumnHeader>
          <Table.ColumnHeader>{t("api.created")}</Table.ColumnHeader>
          <Table.ColumnHeader>{t("api.lastUsed")}</Table.ColumnHeader>
          <Table.ColumnHeader>{t("api.expires")}</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">{t("api.action")}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {tokens.map((token) => (
          <Table.Row key={token.id} data-testid="api-token-row">
            <Table.Cell>
              <HStack gap="2">
                <Icon as={LuKeyRound} color="fg.subtle" />
                <Code variant="plain" fontSize="sm">
                  {token.hint}
                </Code>
              </HStack>
            </Table.Cell>
            <Table.Cell color="fg.muted">{format.dateTime(token.createdAt)}</Table.Cell>
            <Table.Cell color="fg.muted">
              {token.lastUsedAt ? format.dateTime(token.lastUsedAt) : <Badge variant="subtle">{t("api.neverUsed")}</Badge>}
            </Table.Cell>
            <Table.Cell color="fg.muted" data-testid="api-token-expiry">
              <TokenExpiry expiresAt={token.expiresAt} format={format.dateTime} />
            </Table.Cell>
            <Table.Cell textAlign="end">
              <IconButton variant="ghost" size="sm" colorPalette="red" aria-label={t("common.delete")} title={t("common.delete")} onClick={() => onDelete(token)} data-testid="delete-api-token">
                <LuTrash2 />
              </IconButton>
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function TokenExpiry({ expiresAt, format }: { expiresAt: string | null | undefined; format: (value: string) => string }) {
  const { t } = useTranslation();
  if (!expiresAt) return <Badge variant="subtle">{t("api.neverExpires")}</Badge>;
  if (new Date(expiresAt).getTime() <= Date.now()) {
    return (
      <Badge variant="subtle" colorPalette="red" title={format(expiresAt)}>
        {t("api.expired")}
      </Badge>
    );
  }
  return <>{format(expiresAt)}</>;
}

export default function ApiPage() {
  const { t } = useTranslation();
  const { data, tokens, loading, error, refetch, creating, create, remove, createdToken, setCreatedToken, deleting, setDeleting } = useApiTokens();
  const [choosingExpiry, setChoosingExpiry] = useState(false);
  const format = useFormatters();

  return (
    <Stack gap="5">
      <ServiceAddress />
      <SettingsCard p="0" overflow="hidden">
        <Flex px={{ base: "5", md: "6" }} py="4" align="center" justify="space-between" gap="4" borderBottomWidth="1px">
          <Stack gap="0.5">
            <HStack gap="2">
              <Text fontWeight="semibold">{t("api.keys")}</Text>
              {data && (
                <Badge variant="subtle" colorPalette="brand" rounded="full" data-testid="api-token-count">
                  {format.number(tokens.length)}
                </Badge>
              )}
            </HStack>
            <Text fontSize="sm" color="fg.muted">
              {t("api.keysHint")}
            </Text>
          </Stack>
          <Button colorPalette="brand" size="sm" onClick={() => setChoosingExpiry(true)} data-testid="create-api-token">
            <LuPlus /> {t("api.create")}
          </Button>
        </Flex>
        {loading && !data ? (
          <Stack p="6" gap="3">
            <Skeleton height="6" />
            <Skeleton height="6" />
          </Stack>
        ) : error && !data ? (
          <LoadFailed py="10" error={error} onRetry={() => void refetch()} />
        ) : tokens.length === 0 ? (
          <Center py="12" px="6" flexDirection="column" gap="2" textAlign="center" data-testid="api-token-empty">
            <Box rounded="full" bg="bg.muted" p="3" color="fg.muted">
              <LuKeyRound />
            </Box>
            <Text fontWeight="medium">{t("api.emptyTitle")}</Text>
            <Text fontSize="sm" color="fg.muted" maxWidth="sm">
              {t("errors.createApiTokenFirst")}
            </Text>
          </Center>
        ) : (
          <TokenTable tokens={tokens} onDelete={setDeleting} />
        )}
      </SettingsCard>
      <CreateTokenDialog
        open={choosingExpiry}
        creating={creating}
        onClose={() => setChoosingExpiry(false)}
        onCreate={create}
      />
      <CreatedTokenDialog token={createdToken} onClose={() => setCreatedToken(null)} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        subject={deleting?.hint}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      />
    </Stack>
  );
}

import { Badge, Box, Button, Code, Flex, HStack, Icon, IconButton, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuEye, LuPencil, LuPlugZap, LuPlus, LuTrash2 } from "react-icons/lu";
import { useFormatters } from "../../../format";
import type { ModelEntryRowFragment } from "../../../graphql/gql/graphql";
import { SettingsCard } from "../SettingsCard";
import { ConnectionResult, type ConnectionTest } from "../../../components/ConnectionResult";
import { ModelTypeBadge, ProviderMonogram } from "./ProviderMonogram";

/** A connection test of a listed model: running, or what it found. */
export type RowTest = { running: true } | { running: false; result: ConnectionTest };

interface ProviderModelsCardProps {
  provider: string;
  entries: ModelEntryRowFragment[];
  /** False when the provider is no longer offered by this server: its entries can only be deleted. */
  known: boolean;
  tests: Record<string, RowTest | undefined>;
  onAdd: () => void;
  onTest: (entry: ModelEntryRowFragment) => void;
  onEdit: (entry: ModelEntryRowFragment) => void;
  onDelete: (entry: ModelEntryRowFragment) => void;
}

/** One provider's added models: name, type, vision, tokens used, and test, edit and delete for each. */
export function ProviderModelsCard({ provider, entries, known, tests, onAdd, onTest, onEdit, onDelete }: ProviderModelsCardProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <SettingsCard p="0" overflow="hidden" data-testid="provider-models" data-provider={provider}>
      <Flex px={{ base: "4", md: "5" }} py="3.5" gap="3" align="center" borderBottomWidth="1px" bg="bg.subtle">
        <ProviderMonogram name={provider} />
        <Stack gap="0" flex="1" minWidth="0">
          <Text fontWeight="semibold" truncate>
            {provider}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {known ? t("models.list.count", { count: entries.length }) : t("models.list.providerGone")}
          </Text>
        </Stack>
        {known && (
          <Button size="sm" variant="outline" onClick={onAdd} data-testid="add-to-provider">
            <LuPlus /> {t("models.list.addModel")}
          </Button>
        )}
      </Flex>
      <Stack gap="0" separator={<Box borderTopWidth="1px" />}>
        {entries.map((entry) => {
          const test = tests[entry.id];
          return (
            <Stack key={entry.id} gap="2" px={{ base: "4", md: "5" }} py="3" data-testid="model-entry" data-model={entry.modelName}>
              <Flex gap="3" align="center" wrap="wrap">
                <Stack gap="1" flex="1" minWidth="48">
                  <HStack gap="2" flexWrap="wrap">
                    <Code variant="plain" fontSize="sm" fontWeight="semibold" wordBreak="break-all">
                      {entry.modelName}
                    </Code>
                    <ModelTypeBadge type={entry.modelType} size="xs" />
                    {entry.vision && (
                      <Badge size="xs" variant="outline" colorPalette="gray" gap="1" title={t("models.list.visionHint")}>
                        <Icon as={LuEye} boxSize="3" /> {t("models.list.vision")}
                      </Badge>
                    )}
                  </HStack>
                  <Text fontSize="xs" color="fg.muted" data-testid="used-tokens">
                    {t("models.list.usedTokens", { tokens: format.number(entry.usedTokens) })}
                    {entry.maxTokens != null && ` · ${t("models.list.maxTokens", { tokens: format.number(entry.maxTokens) })}`}
                  </Text>
                </Stack>
                <HStack gap="1">
                  <Button
                    size="sm"
                    variant="ghost"
                    loading={test?.running}
                    disabled={!known}
                    onClick={() => onTest(entry)}
                    data-testid="test-entry"
                  >
                    <LuPlugZap /> {t("models.test.short")}
                  </Button>
                  <IconButton
                    size="sm"
                    variant="ghost"
                    aria-label={t("models.list.edit")}
                    title={t("models.list.edit")}
                    disabled={!known}
                    onClick={() => onEdit(entry)}
                    data-testid="edit-entry"
                  >
                    <LuPencil />
                  </IconButton>
                  <IconButton
                    size="sm"
                    variant="ghost"
                    colorPalette="red"
                    aria-label={t("common.delete")}
                    title={t("common.delete")}
                    onClick={() => onDelete(entry)}
                    data-testid="delete-entry"
                  >
                    <LuTrash2 />
                  </IconButton>
                </HStack>
              </Flex>
              {test && !test.running && <ConnectionResult result={test.result} />}
            </Stack>
          );
        })}
      </Stack>
    </SettingsCard>
  );
}

import { Box, Button, Center, Flex, Heading, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuRefreshCw } from "react-icons/lu";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { notify } from "../../components/toaster";
import { describeError } from "../../errors";
import {
  DeleteModelEntryDocument,
  ModelSettingsDocument,
  TestModelConnectionDocument,
  type ModelEntryRowFragment,
  type ModelProviderInfoFragment,
} from "../../graphql/gql/graphql";
import { BuiltinModelsCard } from "./models/BuiltinModelsCard";
import { ModelEntryDialog } from "./models/ModelEntryDialog";
import { ProviderModelsCard, type RowTest } from "./models/ProviderModelsCard";
import { ProviderPicker } from "./models/ProviderPicker";
import { MODEL_TYPES, describeModelError } from "./models/modelText";

interface ProviderGroup {
  provider: string;
  definition: ModelProviderInfoFragment | undefined;
  entries: ModelEntryRowFragment[];
}

/** The tenant's entries by provider, in the registry's order; within a provider by type (§3 order), then name. */
function groupEntries(entries: readonly ModelEntryRowFragment[], providers: readonly ModelProviderInfoFragment[]): ProviderGroup[] {
  const typeRank = (type: string) => {
    const index = (MODEL_TYPES as readonly string[]).indexOf(type);
    return index < 0 ? MODEL_TYPES.length : index;
  };
  const groups = new Map<string, ProviderGroup>();
  for (const entry of entries) {
    const group = groups.get(entry.provider) ?? { provider: entry.provider, definition: providers.find((p) => p.name === entry.provider), entries: [] };
    group.entries.push(entry);
    groups.set(entry.provider, group);
  }
  const providerRank = (group: ProviderGroup) => (group.definition ? providers.indexOf(group.definition) : providers.length);
  return [...groups.values()]
    .map((group) => ({
      ...group,
      entries: group.entries.sort((a, b) => typeRank(a.modelType) - typeRank(b.modelType) || a.modelName.localeCompare(b.modelName)),
    }))
    .sort((a, b) => providerRank(a) - providerRank(b) || a.provider.localeCompare(b.provider));
}

function SectionHeading({ title, hint }: { title: string; hint: string }) {
  return (
    <Stack gap="0.5">
      <Heading as="h2" size="md">
        {title}
      </Heading>
      <Text fontSize="sm" color="fg.muted">
        {hint}
      </Text>
    </Stack>
  );
}

interface DialogState {
  open: boolean;
  provider: ModelProviderInfoFragment | null;
  entry: ModelEntryRowFragment | null;
}

export default function ModelPage() {
  const { t, i18n } = useTranslation();
  const { data, loading, error, refetch } = useQuery(ModelSettingsDocument);
  const [dialog, setDialog] = useState<DialogState>({ open: false, provider: null, entry: null });
  const [deleting, setDeleting] = useState<ModelEntryRowFragment | null>(null);
  const [tests, setTests] = useState<Record<string, RowTest | undefined>>({});
  const [deleteEntry] = useMutation(DeleteModelEntryDocument);
  const [testConnection] = useMutation(TestModelConnectionDocument);

  const providers = useMemo(() => data?.modelProviders ?? [], [data]);
  const entries = useMemo(() => data?.modelEntries ?? [], [data]);
  const builtin = providers.find((provider) => provider.builtin);
  const addable = useMemo(() => providers.filter((provider) => !provider.builtin), [providers]);
  const groups = useMemo(() => groupEntries(entries, providers), [entries, providers]);
  const addedCounts = useMemo(() => Object.fromEntries(groups.map((group) => [group.provider, group.entries.length])), [groups]);

  async function test(entry: ModelEntryRowFragment) {
    setTests((current) => ({ ...current, [entry.id]: { running: true } }));
    try {
      const { data: tested } = await testConnection({ variables: { entryId: entry.id } });
      setTests((current) => ({ ...current, [entry.id]: tested ? { running: false, result: tested.testModelConnection } : undefined }));
    } catch (failure) {
      setTests((current) => ({ ...current, [entry.id]: undefined }));
      notify.error(describeModelError(failure, i18n));
    }
  }

  async function remove(entry: ModelEntryRowFragment) {
    try {
      await deleteEntry({
        variables: { id: entry.id },
        update(cache) {
          cache.evict({ id: cache.identify({ __typename: "ModelEntryType", id: entry.id }) });
          cache.gc();
        },
      });
      notify.success("deleted");
    } catch (failure) {
      notify.error(describeModelError(failure, i18n));
    }
  }

  if (loading && !data) {
    return (
      <Stack gap="4">
        <Skeleton height="32" rounded="l3" />
        <Skeleton height="48" rounded="l3" />
      </Stack>
    );
  }
  if (error && !data) {
    return (
      <Center py="10" flexDirection="column" gap="3" role="alert" borderWidth="1px" rounded="l3" bg="bg.panel">
        <Text color="fg.muted">{describeError(error, i18n)}</Text>
        <Button size="sm" variant="outline" onClick={() => void refetch()}>
          <LuRefreshCw /> {t("common.retry")}
        </Button>
      </Center>
    );
  }

  return (
    <Stack gap="10">
      <Stack gap="4" as="section" aria-labelledby="added-models">
        <Box id="added-models">
          <SectionHeading title={t("models.list.title")} hint={t("models.list.hint")} />
        </Box>
        {builtin && <BuiltinModelsCard provider={builtin} />}
        {groups.map((group) => (
          <ProviderModelsCard
            key={group.provider}
            provider={group.provider}
            entries={group.entries}
            known={group.definition !== undefined}
            tests={tests}
            onAdd={() => group.definition && setDialog({ open: true, provider: group.definition, entry: null })}
            onTest={(entry) => void test(entry)}
            onEdit={(entry) => group.definition && setDialog({ open: true, provider: group.definition, entry })}
            onDelete={setDeleting}
          />
        ))}
        {groups.length === 0 && (
          <Flex
            px="5"
            py="4"
            rounded="l3"
            borderWidth="1px"
            borderStyle="dashed"
            borderColor="border.emphasized"
            color="fg.muted"
            fontSize="sm"
            data-testid="no-model-entries"
          >
            {t(builtin ? "models.list.emptyWithBuiltin" : "models.list.empty")}
          </Flex>
        )}
      </Stack>

      <Stack gap="4" as="section" aria-labelledby="add-model">
        <Box id="add-model">
          <SectionHeading title={t("models.picker.title")} hint={t("models.picker.hint")} />
        </Box>
        <ProviderPicker providers={addable} addedCounts={addedCounts} onPick={(provider) => setDialog({ open: true, provider, entry: null })} />
      </Stack>

      <ModelEntryDialog
        open={dialog.open}
        provider={dialog.provider}
        entry={dialog.entry}
        onClose={() => {
          // A test result describes the settings before the edit.
          if (dialog.entry) setTests((current) => ({ ...current, [dialog.entry!.id]: undefined }));
          setDialog((current) => ({ ...current, open: false }));
        }}
      />
      <ConfirmDeleteDialog
        open={deleting !== null}
        subject={deleting?.modelId}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      />
    </Stack>
  );
}

import { Box, Code, HStack, Input, NativeSelect, SimpleGrid, Stack, Switch, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../../components/FormField";
import type { ModelEntryRowFragment, ModelProviderInfoFragment } from "../../../graphql/gql/graphql";
import type { Draft } from "./modelEntryDraft";
import { ModelNameInput } from "./ModelNameInput";
import { canHaveVision, typeLabel } from "./modelText";

/** The model entry form's own fields around the provider's credentials: which model, and its limits. */

interface ModelIdentityFieldsProps {
  provider: ModelProviderInfoFragment;
  entry: ModelEntryRowFragment | null;
  draft: Draft;
  suggestions: string[];
  problem: (field: string) => string | undefined;
  onTypeChange: (modelType: string) => void;
  onNameChange: (modelName: string) => void;
}

/** A new entry's model type and name; an edited entry shows its model id, which cannot change. */
export function ModelIdentityFields({ provider, entry, draft, suggestions, problem, onTypeChange, onNameChange }: ModelIdentityFieldsProps) {
  const { t } = useTranslation();
  return entry ? (
    <HStack gap="3" bg="bg.subtle" rounded="l2" px="3" py="2.5" borderWidth="1px" flexWrap="wrap">
      <Text fontSize="sm" color="fg.muted">
        {typeLabel(t, entry.modelType)}
      </Text>
      <Code variant="plain" fontSize="sm" wordBreak="break-all" data-testid="edited-model-id">
        {entry.modelId}
      </Code>
    </HStack>
  ) : (
    <SimpleGrid columns={{ base: 1, sm: 3 }} gap="4">
      <FormField label={t("models.dialog.modelType")} error={problem("modelType")} required>
        <NativeSelect.Root>
          <NativeSelect.Field
            name="modelType"
            value={draft.modelType}
            onChange={(event) => onTypeChange(event.target.value)}
          >
            {provider.modelTypes.map((type) => (
              <option key={type} value={type}>
                {typeLabel(t, type)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      <Box gridColumn={{ sm: "span 2" }}>
        <FormField
          label={t("models.dialog.modelName")}
          error={problem("modelName")}
          helper={suggestions.length > 0 ? t("models.dialog.modelNameHelp") : t("models.dialog.modelNameFree")}
          required
        >
          <ModelNameInput value={draft.modelName} onChange={onNameChange} suggestions={suggestions} placeholder={t("models.dialog.modelNamePlaceholder", { model: suggestions[0] ?? "my-model" })} />
        </FormField>
      </Box>
    </SimpleGrid>
  );
}

interface ModelLimitFieldsProps {
  draft: Draft;
  problem: (field: string) => string | undefined;
  onMaxTokensChange: (maxTokens: string) => void;
  onVisionChange: (vision: boolean) => void;
}

/** The model's context size, and whether it reads images (chat and image-to-text models only). */
export function ModelLimitFields({ draft, problem, onMaxTokensChange, onVisionChange }: ModelLimitFieldsProps) {
  const { t } = useTranslation();
  return (
    <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4" alignItems="start">
      <FormField label={t("models.dialog.maxTokens")} error={problem("maxTokens")} helper={t("models.dialog.maxTokensHelp")}>
        <Input
          name="maxTokens"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={draft.maxTokens}
          placeholder="8192"
          onChange={(event) => onMaxTokensChange(event.target.value)}
        />
      </FormField>
      {canHaveVision(draft.modelType) && (
        <Stack gap="1.5" pt={{ sm: "7" }}>
          <Switch.Root checked={draft.vision} onCheckedChange={(details) => onVisionChange(details.checked)} colorPalette="brand">
            <Switch.HiddenInput name="vision" />
            <Switch.Control>
              <Switch.Thumb />
            </Switch.Control>
            <Switch.Label>{t("models.dialog.vision")}</Switch.Label>
          </Switch.Root>
          <Text fontSize="xs" color="fg.muted">
            {t("models.dialog.visionHelp")}
          </Text>
        </Stack>
      )}
    </SimpleGrid>
  );
}

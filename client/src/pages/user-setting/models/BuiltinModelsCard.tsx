import { Badge, Box, Code, Flex, HStack, Stack, Text } from "@chakra-ui/react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { ModelProviderInfoFragment } from "../../../graphql/gql/graphql";
import { SettingsCard } from "../SettingsCard";
import { ModelTypeBadge, ProviderMonogram } from "./ProviderMonogram";
import { MODEL_TYPES } from "./modelText";

type CatalogueModel = ModelProviderInfoFragment["catalogue"][number];

/**
 * What a built-in model really is, said plainly: the extractive chat model is no language model, and the
 * embedding is Cairn's own. A second model of a type is another name for the first (e.g. the BGE name
 * RAGFlow clients send), and is labelled so.
 */
export function builtinDescription(t: TFunction, model: CatalogueModel, catalogue: readonly CatalogueModel[]): string {
  const first = catalogue.find((other) => other.type === model.type);
  if (first && first.name !== model.name) return t("models.builtin.alias", { model: first.name });
  return t(`models.builtin.about.${model.type}`, { defaultValue: t("models.builtin.about.other") });
}

function sortedCatalogue(catalogue: readonly CatalogueModel[]): CatalogueModel[] {
  const rank = (type: string) => {
    const index = (MODEL_TYPES as readonly string[]).indexOf(type);
    return index < 0 ? MODEL_TYPES.length : index;
  };
  return [...catalogue].sort((a, b) => rank(a.type) - rank(b.type));
}

/** The models that ship with Cairn: always there, nothing to configure, each described honestly. */
export function BuiltinModelsCard({ provider }: { provider: ModelProviderInfoFragment }) {
  const { t } = useTranslation();
  return (
    <SettingsCard p="0" overflow="hidden" data-testid="builtin-models">
      <Flex px={{ base: "4", md: "5" }} py="4" gap="3" align="center" borderBottomWidth="1px" bg="bg.subtle">
        <ProviderMonogram name={provider.name} builtin />
        <Stack gap="0.5" flex="1" minWidth="0">
          <HStack gap="2" flexWrap="wrap">
            <Text fontWeight="semibold">{t("models.builtin.title")}</Text>
            <Badge colorPalette="green" variant="subtle" size="sm">
              {t("models.builtin.alwaysAvailable")}
            </Badge>
          </HStack>
          <Text fontSize="sm" color="fg.muted">
            {t("models.builtin.summary")}
          </Text>
        </Stack>
      </Flex>
      <Stack gap="0" separator={<Box borderTopWidth="1px" />}>
        {sortedCatalogue(provider.catalogue).map((model) => (
          <Flex key={`${model.type}:${model.name}`} px={{ base: "4", md: "5" }} py="3" gap={{ base: "1.5", md: "4" }} direction={{ base: "column", md: "row" }} data-testid="builtin-model">
            <HStack gap="2" width={{ md: "64" }} flexShrink="0" align="center" alignSelf="flex-start" minWidth="0" flexWrap="wrap">
              <Code variant="plain" fontSize="sm" fontWeight="medium" wordBreak="break-all">
                {model.name}
              </Code>
              <ModelTypeBadge type={model.type} size="xs" />
            </HStack>
            <Text fontSize="sm" color="fg.muted" flex="1">
              {builtinDescription(t, model, provider.catalogue)}
            </Text>
          </Flex>
        ))}
      </Stack>
    </SettingsCard>
  );
}

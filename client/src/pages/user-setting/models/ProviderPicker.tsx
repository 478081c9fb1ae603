import { Badge, Box, Center, HStack, Icon, Input, InputGroup, SimpleGrid, Stack, Text, chakra } from "@chakra-ui/react";
import { useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuPlus, LuSearch } from "react-icons/lu";
import type { ModelProviderInfoFragment } from "../../../graphql/gql/graphql";
import { ProviderMonogram } from "./ProviderMonogram";
import { MODEL_TYPES, typeLabel, typePalette } from "./modelText";

/** §9: the registry lists the five most used providers first. */
const MOST_USED_COUNT = 5;
const TYPES_SHOWN = 3;

function byTypeOrder(types: readonly string[]): string[] {
  const rank = (type: string) => {
    const index = (MODEL_TYPES as readonly string[]).indexOf(type);
    return index < 0 ? MODEL_TYPES.length : index;
  };
  return [...types].sort((a, b) => rank(a) - rank(b));
}

function ProviderTile({ provider, added, onPick }: { provider: ModelProviderInfoFragment; added: number; onPick: () => void }) {
  const { t } = useTranslation();
  const types = byTypeOrder(provider.modelTypes);
  return (
    <chakra.button
      type="button"
      onClick={onPick}
      textAlign="start"
      display="flex"
      alignItems="center"
      gap="3"
      px="3.5"
      py="3"
      rounded="l3"
      borderWidth="1px"
      bg="bg.panel"
      cursor="pointer"
      transition="border-color 0.15s, box-shadow 0.15s, background 0.15s"
      _hover={{ borderColor: "brand.emphasized", bg: "brand.subtle/40" }}
      _focusVisible={{ outline: "2px solid", outlineColor: "brand.focusRing", outlineOffset: "1px" }}
      aria-label={t("models.picker.addFrom", { provider: provider.name })}
      data-testid="provider-tile"
      data-provider={provider.name}
    >
      <ProviderMonogram name={provider.name} />
      <Stack gap="1" flex="1" minWidth="0">
        <HStack gap="2" minWidth="0">
          <Text fontWeight="semibold" fontSize="sm" truncate title={provider.name}>
            {provider.name}
          </Text>
          {added > 0 && (
            <Badge size="xs" variant="solid" colorPalette="brand" rounded="full" flexShrink="0" title={t("models.picker.added", { count: added })}>
              {added}
            </Badge>
          )}
        </HStack>
        <HStack gap="1" flexWrap="wrap">
          {types.slice(0, TYPES_SHOWN).map((type) => (
            <Badge key={type} size="xs" variant="subtle" colorPalette={typePalette(type)}>
              {typeLabel(t, type)}
            </Badge>
          ))}
          {types.length > TYPES_SHOWN && (
            <Badge size="xs" variant="outline" colorPalette="gray" title={types.slice(TYPES_SHOWN).map((type) => typeLabel(t, type)).join(", ")}>
              +{types.length - TYPES_SHOWN}
            </Badge>
          )}
        </HStack>
      </Stack>
      <Icon as={LuPlus} color="fg.subtle" boxSize="4" flexShrink="0" />
    </chakra.button>
  );
}

function SectionLabel({ children }: { children: string }) {
  return (
    <Text fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="0.06em" color="fg.subtle">
      {children}
    </Text>
  );
}

interface ProviderPickerProps {
  /** The providers one can add models from, in the registry's order. */
  providers: ModelProviderInfoFragment[];
  addedCounts: Record<string, number>;
  onPick: (provider: ModelProviderInfoFragment) => void;
}

/** Every provider to add a model from: the five most used first, the rest below, searchable by provider or model name. */
export function ProviderPicker({ providers, addedCounts, onPick }: ProviderPickerProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const needle = useDeferredValue(query.trim().toLowerCase());
  const matches = needle
    ? providers.filter(
        (provider) =>
          provider.name.toLowerCase().includes(needle) ||
          provider.catalogue.some((model) => model.name.toLowerCase().includes(needle)) ||
          provider.modelTypes.some((type) => typeLabel(t, type).toLowerCase().includes(needle)),
      )
    : providers;

  const grid = (list: ModelProviderInfoFragment[]) => (
    <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="3">
      {list.map((provider) => (
        <ProviderTile key={provider.name} provider={provider} added={addedCounts[provider.name] ?? 0} onPick={() => onPick(provider)} />
      ))}
    </SimpleGrid>
  );

  return (
    <Stack gap="4" data-testid="provider-picker">
      <InputGroup startElement={<LuSearch />} maxWidth={{ md: "sm" }}>
        <Input
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder={t("models.picker.search")}
          aria-label={t("models.picker.search")}
          data-testid="provider-search"
        />
      </InputGroup>
      {providers.length === 0 ? (
        <Center py="8" color="fg.muted" fontSize="sm" borderWidth="1px" borderStyle="dashed" rounded="l3">
          {t("models.picker.none")}
        </Center>
      ) : needle ? (
        matches.length > 0 ? (
          grid(matches)
        ) : (
          <Center py="8" px="4" color="fg.muted" fontSize="sm" borderWidth="1px" borderStyle="dashed" rounded="l3" textAlign="center" data-testid="provider-no-match">
            {t("models.picker.noMatch", { query: query.trim() })}
          </Center>
        )
      ) : (
        <>
          <Stack gap="2.5">
            <SectionLabel>{t("models.picker.mostUsed")}</SectionLabel>
            {grid(providers.slice(0, MOST_USED_COUNT))}
          </Stack>
          {providers.length > MOST_USED_COUNT && (
            <Box>
              <Stack gap="2.5">
                <SectionLabel>{t("models.picker.more", { count: providers.length - MOST_USED_COUNT })}</SectionLabel>
                {grid(providers.slice(MOST_USED_COUNT))}
              </Stack>
            </Box>
          )}
        </>
      )}
    </Stack>
  );
}

import { Box, Flex, HStack, Icon, IconButton, Input, InputGroup, Stack, Text } from "@chakra-ui/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuDatabase, LuGlobe, LuKeyRound, LuPanelLeftClose, LuSearch } from "react-icons/lu";
import { CATEGORY_COLORS, componentIcon } from "../componentIcon";
import type { FlowComponentInfo } from "../flowTypes";

/** The drag payload of a palette entry: the component's name. */
export const PALETTE_MIME = "application/x-cairn-flow-component";

const NEED_ICONS: Record<string, typeof LuKeyRound> = { apiKey: LuKeyRound, internet: LuGlobe, database: LuDatabase };

interface PaletteProps {
  components: readonly FlowComponentInfo[];
  /** Begin is offered only to a flow that has none. */
  hasBegin: boolean;
  onAdd: (componentName: string) => void;
  onCollapse: () => void;
}

/**
 * The components a flow may use, from the registry, grouped by category in the registry's order, with their
 * icons and what they do; search filters by name and description. Drag one onto the canvas, or click to add it.
 */
export function Palette({ components, hasBegin, onAdd, onCollapse }: PaletteProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const groups = useMemo(() => {
    const wanted = search.trim().toLowerCase();
    const shown = components.filter((component) => {
      if (component.name === "Begin" && hasBegin) return false;
      if (!wanted) return true;
      return [component.name, t(component.label), t(component.description)].some((text) => text.toLowerCase().includes(wanted));
    });
    const categories = [...new Set(components.map((component) => component.category))];
    return categories.map((category) => ({ category, items: shown.filter((component) => component.category === category) })).filter((group) => group.items.length > 0);
  }, [components, hasBegin, search, t]);

  return (
    <Flex direction="column" height="full" minHeight="0" data-testid="flow-palette">
      <HStack p="3" gap="1" borderBottomWidth="1px">
        <InputGroup startElement={<LuSearch />}>
          <Input size="sm" value={search} onChange={(event) => setSearch(event.target.value)} placeholder={t("flow.editor.searchComponents")} data-testid="flow-palette-search" />
        </InputGroup>
        <IconButton variant="ghost" size="sm" aria-label={t("flow.editor.hideComponents")} title={t("flow.editor.hideComponents")} onClick={onCollapse} data-testid="flow-palette-close">
          <LuPanelLeftClose />
        </IconButton>
      </HStack>
      <Stack gap="4" p="3" overflowY="auto" flex="1" minHeight="0">
        {groups.map(({ category, items }) => (
          <Stack key={category} gap="1.5">
            <Text fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="wide" color="fg.muted">
              {t(`flow.categories.${category}`)}
            </Text>
            {items.map((component) => (
              <PaletteEntry key={component.name} component={component} onAdd={onAdd} />
            ))}
          </Stack>
        ))}
        {groups.length === 0 && (
          <Text fontSize="sm" color="fg.muted" data-testid="flow-palette-empty">
            {t("flow.editor.noComponentFound")}
          </Text>
        )}
      </Stack>
    </Flex>
  );
}

function PaletteEntry({ component, onAdd }: { component: FlowComponentInfo; onAdd: (name: string) => void }) {
  const { t } = useTranslation();
  const color = CATEGORY_COLORS[component.category] ?? "gray";
  const description = t(component.description);
  return (
    <HStack
      as="button"
      gap="2.5"
      p="2"
      rounded="md"
      borderWidth="1px"
      borderColor="border"
      bg="bg.panel"
      textAlign="start"
      cursor="grab"
      _hover={{ borderColor: `${color}.solid`, bg: "bg.subtle" }}
      title={description}
      draggable
      onDragStart={(event) => {
        event.dataTransfer.setData(PALETTE_MIME, component.name);
        event.dataTransfer.effectAllowed = "move";
      }}
      onClick={() => onAdd(component.name)}
      data-testid="flow-palette-item"
      data-component={component.name}
    >
      <Flex flexShrink={0} align="center" justify="center" boxSize="7" rounded="md" bg={`${color}.subtle`} color={`${color}.fg`}>
        <Icon as={componentIcon(component.icon)} boxSize="4" />
      </Flex>
      <Stack gap="0" minWidth="0" flex="1">
        <HStack gap="1">
          <Text fontSize="sm" fontWeight="medium" truncate>
            {t(component.label)}
          </Text>
          {component.needs.map((need) => (
            <Box as="span" key={need} display="inline-flex" color="fg.muted" title={t(`flow.editor.needs.${need}`)} aria-label={t(`flow.editor.needs.${need}`)} data-testid="flow-palette-need">
              <Icon as={NEED_ICONS[need] ?? LuGlobe} boxSize="3" />
            </Box>
          ))}
        </HStack>
        <Text fontSize="xs" color="fg.muted" lineClamp={1}>
          {description}
        </Text>
      </Stack>
    </HStack>
  );
}

import { Badge, Box, Center, Flex, HStack, IconButton, Input, InputGroup, Menu, Portal, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuChartLine, LuCode, LuEllipsis, LuLibrary, LuSearch, LuSettings2, LuTrash2 } from "react-icons/lu";
import type { AssistantCardFragment } from "../../../graphql/gql/graphql";
import { AssistantAvatar } from "./AssistantAvatar";

export type AssistantAction = "edit" | "statistics" | "embed" | "delete";

interface AssistantListProps {
  assistants: AssistantCardFragment[] | undefined;
  selectedId: string | null;
  search: string;
  onSearch: (search: string) => void;
  onSelect: (id: string) => void;
  onAction: (action: AssistantAction, assistant: AssistantCardFragment) => void;
}

/** The assistants as compact cards: picture, name, description, knowledge bases; the menu edits, shows statistics, embeds, deletes. */
export function AssistantList({ assistants, selectedId, search, onSearch, onSelect, onAction }: AssistantListProps) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" minHeight="0" height="full">
      <Box px="3" py="3" borderBottomWidth="1px" borderColor="border.muted">
        <InputGroup startElement={<LuSearch />}>
          <Input size="sm" placeholder={t("chat.assistants.search")} value={search} onChange={(event) => onSearch(event.target.value)} data-testid="assistant-search" />
        </InputGroup>
      </Box>
      <Box flex="1" minHeight="0" overflowY="auto" p="2" data-testid="assistant-list">
        {!assistants ? (
          <Stack gap="2" p="1">
            <Skeleton height="16" />
            <Skeleton height="16" />
          </Stack>
        ) : assistants.length === 0 ? (
          <Center py="10" px="4" textAlign="center">
            <Text fontSize="sm" color="fg.subtle">
              {t("chat.assistants.noMatch", { search })}
            </Text>
          </Center>
        ) : (
          <Stack gap="1">
            {assistants.map((assistant) => {
              const selected = assistant.id === selectedId;
              return (
                <Flex
                  key={assistant.id}
                  role="button"
                  tabIndex={0}
                  gap="3"
                  p="2.5"
                  rounded="l2"
                  borderWidth="1px"
                  borderColor={selected ? "brand.emphasized" : "transparent"}
                  bg={selected ? "brand.subtle" : undefined}
                  cursor="pointer"
                  _hover={{ bg: selected ? "brand.subtle" : "bg.muted" }}
                  onClick={() => onSelect(assistant.id)}
                  onKeyDown={(event) => (event.key === "Enter" || event.key === " ") && onSelect(assistant.id)}
                  aria-current={selected || undefined}
                  data-testid="assistant-card"
                  data-selected={selected || undefined}
                >
                  <AssistantAvatar name={assistant.name} avatar={assistant.avatar} size="md" />
                  <Stack gap="0.5" flex="1" minWidth="0">
                    <Text fontSize="sm" fontWeight="semibold" truncate title={assistant.name} data-testid="assistant-card-name">
                      {assistant.name}
                    </Text>
                    <Text fontSize="xs" color={assistant.description ? "fg.muted" : "fg.subtle"} truncate>
                      {assistant.description || t("chat.assistants.noDescription")}
                    </Text>
                    <HStack gap="1" mt="0.5">
                      <Badge size="xs" variant="subtle" title={assistant.knowledgeBases.map((kb) => kb.name).join(", ")}>
                        <LuLibrary /> {t("chat.assistants.knowledgeBases", { count: assistant.knowledgeBases.length })}
                      </Badge>
                    </HStack>
                  </Stack>
                  <Menu.Root positioning={{ placement: "bottom-end" }}>
                    <Menu.Trigger asChild>
                      <IconButton size="xs" variant="ghost" aria-label={t("chat.assistants.actions")} onClick={(event) => event.stopPropagation()} data-testid="assistant-menu">
                        <LuEllipsis />
                      </IconButton>
                    </Menu.Trigger>
                    <Portal>
                      <Menu.Positioner>
                        <Menu.Content>
                          <Menu.Item value="edit" onSelect={() => onAction("edit", assistant)} data-testid="assistant-edit">
                            <LuSettings2 /> {t("chat.assistants.edit")}
                          </Menu.Item>
                          <Menu.Item value="statistics" onSelect={() => onAction("statistics", assistant)} data-testid="assistant-statistics">
                            <LuChartLine /> {t("chat.statistics.title")}
                          </Menu.Item>
                          <Menu.Item value="embed" onSelect={() => onAction("embed", assistant)} data-testid="assistant-embed">
                            <LuCode /> {t("chat.embed.title")}
                          </Menu.Item>
                          <Menu.Item value="delete" color="fg.error" _hover={{ bg: "bg.error", color: "fg.error" }} onSelect={() => onAction("delete", assistant)} data-testid="assistant-delete">
                            <LuTrash2 /> {t("common.delete")}
                          </Menu.Item>
                        </Menu.Content>
                      </Menu.Positioner>
                    </Portal>
                  </Menu.Root>
                </Flex>
              );
            })}
          </Stack>
        )}
      </Box>
    </Flex>
  );
}

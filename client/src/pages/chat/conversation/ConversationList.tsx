import { Box, Center, Flex, HStack, IconButton, Menu, Portal, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuEllipsis, LuMessageSquare, LuPencil, LuPlus, LuTrash2 } from "react-icons/lu";
import { useFormatters } from "../../../format";
import type { ConversationRowFragment } from "../../../graphql/gql/graphql";
import { useCurrentUser } from "../../../session/useCurrentUser";

interface ConversationListProps {
  conversations: ConversationRowFragment[] | undefined;
  selectedId: string | null;
  creating: boolean;
  onSelect: (id: string) => void;
  onCreate: () => void;
  onRename: (conversation: ConversationRowFragment) => void;
  onDelete: (conversation: ConversationRowFragment) => void;
}

/** An assistant's conversations, newest first, with new, rename and delete. */
export function ConversationList({ conversations, selectedId, creating, onSelect, onCreate, onRename, onDelete }: ConversationListProps) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  return (
    <Flex direction="column" minHeight="0" height="full">
      <Flex align="center" justify="space-between" px="4" py="3" borderBottomWidth="1px" borderColor="border.muted">
        <Text fontWeight="semibold" fontSize="sm">
          {t("chat.conversations.title")}
        </Text>
        <IconButton size="xs" variant="subtle" colorPalette="brand" aria-label={t("chat.conversations.new")} title={t("chat.conversations.new")} loading={creating} onClick={onCreate} data-testid="conversation-new">
          <LuPlus />
        </IconButton>
      </Flex>
      <Box flex="1" minHeight="0" overflowY="auto" p="2" data-testid="conversation-list">
        {!conversations ? (
          <Stack gap="2" p="1">
            <Skeleton height="10" />
            <Skeleton height="10" />
          </Stack>
        ) : conversations.length === 0 ? (
          <Center flexDirection="column" gap="2" py="10" px="4" textAlign="center" color="fg.subtle">
            <LuMessageSquare />
            <Text fontSize="sm">{t("chat.conversations.empty")}</Text>
          </Center>
        ) : (
          <Stack gap="0.5">
            {conversations.map((conversation) => {
              const selected = conversation.id === selectedId;
              return (
                <HStack
                  key={conversation.id}
                  role="button"
                  tabIndex={0}
                  gap="1"
                  ps="3"
                  pe="1"
                  py="1.5"
                  rounded="l2"
                  cursor="pointer"
                  bg={selected ? "brand.subtle" : undefined}
                  color={selected ? "brand.fg" : undefined}
                  _hover={{ bg: selected ? "brand.subtle" : "bg.muted" }}
                  onClick={() => onSelect(conversation.id)}
                  onKeyDown={(event) => (event.key === "Enter" || event.key === " ") && onSelect(conversation.id)}
                  aria-current={selected || undefined}
                  data-testid="conversation-item"
                  data-selected={selected || undefined}
                >
                  <Stack gap="0" flex="1" minWidth="0">
                    <Text fontSize="sm" fontWeight={selected ? "semibold" : "medium"} truncate title={conversation.name} data-testid="conversation-name">
                      {conversation.name || t("chat.conversations.defaultName")}
                    </Text>
                    <Text fontSize="xs" color="fg.subtle" truncate>
                      {format.dateTime(conversation.updatedAt)}
                    </Text>
                  </Stack>
                  <Menu.Root positioning={{ placement: "bottom-end" }}>
                    <Menu.Trigger asChild>
                      <IconButton size="xs" variant="ghost" aria-label={t("chat.conversations.actions")} onClick={(event) => event.stopPropagation()} data-testid="conversation-menu">
                        <LuEllipsis />
                      </IconButton>
                    </Menu.Trigger>
                    <Portal>
                      <Menu.Positioner>
                        <Menu.Content>
                          <Menu.Item value="rename" onSelect={() => onRename(conversation)} data-testid="conversation-rename">
                            <LuPencil /> {t("chat.conversations.rename")}
                          </Menu.Item>
                          <Menu.Item value="delete" color="fg.error" _hover={{ bg: "bg.error", color: "fg.error" }} onSelect={() => onDelete(conversation)} data-testid="conversation-delete">
                            <LuTrash2 /> {t("common.delete")}
                          </Menu.Item>
                        </Menu.Content>
                      </Menu.Positioner>
                    </Portal>
                  </Menu.Root>
                </HStack>
              );
            })}
          </Stack>
        )}
      </Box>
    </Flex>
  );
}

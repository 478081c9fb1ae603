import { Badge, Box, Checkbox, HStack, Input, InputGroup, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuSearch } from "react-icons/lu";
import { useFormatters } from "../format";
import { KnowledgeAvatar } from "./KnowledgeAvatar";

export interface KnowledgeBaseChoice {
  id: string;
  name: string;
  avatar?: string | null;
  chunkCount: number;
  embeddingModel: string;
}

interface KnowledgeBasePickerProps {
  choices: KnowledgeBaseChoice[];
  value: string[];
  onChange: (ids: string[]) => void;
  invalid?: boolean;
  /** The list is `${testId}-picker`, each choice `${testId}-option`. */
  testId?: string;
}

/** Several knowledge bases, ticked in a searchable list; each shows how many chunks it can answer from. */
export function KnowledgeBasePicker({ choices, value, onChange, invalid, testId = "assistant-kb" }: KnowledgeBasePickerProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [search, setSearch] = useState("");
  const needle = search.trim().toLowerCase();
  const shown = needle ? choices.filter((kb) => kb.name.toLowerCase().includes(needle)) : choices;
  const selected = new Set(value);
  const embeddings = new Set(choices.filter((kb) => selected.has(kb.id)).map((kb) => kb.embeddingModel));

  function toggle(id: string, on: boolean) {
    onChange(on ? [...value, id] : value.filter((other) => other !== id));
  }

  return (
    <Stack gap="2" width="full">
      {choices.length > 6 && (
        <InputGroup startElement={<LuSearch />}>
          <Input size="sm" placeholder={t("chat.settings.searchKnowledgeBases")} value={search} onChange={(event) => setSearch(event.target.value)} />
        </InputGroup>
      )}
      <Box borderWidth="1px" borderColor={invalid ? "border.error" : "border"} rounded="l2" maxHeight="56" overflowY="auto" data-testid={`${testId}-picker`}>
        {choices.length === 0 ? (
          <Text p="3" fontSize="sm" color="fg.muted">
            {t("chat.settings.noKnowledgeBases")}
          </Text>
        ) : (
          shown.map((kb) => (
            <Checkbox.Root
              key={kb.id}
              checked={selected.has(kb.id)}
              onCheckedChange={(details) => toggle(kb.id, details.checked === true)}
              colorPalette="brand"
              display="flex"
              width="full"
              px="3"
              py="2"
              gap="3"
              borderBottomWidth="1px"
              borderColor="border.muted"
              _last={{ borderBottomWidth: 0 }}
              _hover={{ bg: "bg.subtle" }}
              cursor="pointer"
              data-testid={`${testId}-option`}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label flex="1" minWidth="0">
                <HStack gap="2" minWidth="0">
                  <KnowledgeAvatar name={kb.name} avatar={kb.avatar} size="sm" />
                  <Text truncate fontWeight="medium">
                    {kb.name}
                  </Text>
                </HStack>
              </Checkbox.Label>
              {kb.chunkCount === 0 ? (
                <Badge size="sm" colorPalette="orange" variant="subtle">
                  {t("chat.settings.noChunks")}
                </Badge>
              ) : (
                <Text fontSize="xs" color="fg.muted" flexShrink={0}>
                  {t("kb.list.chunks", { count: kb.chunkCount, formatted: format.number(kb.chunkCount) })}
                </Text>
              )}
            </Checkbox.Root>
          ))
        )}
      </Box>
      {embeddings.size > 1 && (
        <Text fontSize="xs" color="fg.warning">
          {t("chat.settings.mixedEmbeddings")}
        </Text>
      )}
    </Stack>
  );
}

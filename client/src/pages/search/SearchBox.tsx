import { Button, HStack, Input, Popover, Portal, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuChevronDown, LuDatabase, LuSearch } from "react-icons/lu";
import { KnowledgeBasePicker, type KnowledgeBaseChoice } from "../../components/KnowledgeBasePicker";
import { QUESTION_MAX_LENGTH } from "./searchState";

interface SearchBoxProps {
  question: string;
  onQuestion: (question: string) => void;
  choices: KnowledgeBaseChoice[];
  chosen: string[];
  onChosen: (ids: string[]) => void;
  onSearch: () => void;
  busy: boolean;
  /** Large and centred before the first search; compact above the results after. */
  prominent: boolean;
}

/** The question and the knowledge bases it searches. */
export function SearchBox({ question, onQuestion, choices, chosen, onChosen, onSearch, busy, prominent }: SearchBoxProps) {
  const { t } = useTranslation();
  const names = choices.filter((kb) => chosen.includes(kb.id)).map((kb) => kb.name);
  const noKnowledgeBase = chosen.length === 0;
  const size = prominent ? "lg" : "md";
  return (
    <Stack gap="1.5" width="full">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (question.trim() && !noKnowledgeBase) onSearch();
        }}
      >
        <HStack gap="0" bg="bg.panel" borderWidth="1px" rounded="l3" shadow={prominent ? "md" : "xs"} p="1" _focusWithin={{ borderColor: "brand.emphasized" }}>
          <Popover.Root positioning={{ placement: "bottom-start" }}>
            <Popover.Trigger asChild>
              <Button variant="ghost" size={size} maxWidth="56" flexShrink={0} data-testid="search-kb-button" title={names.join(", ")}>
                <LuDatabase />
                <Text as="span" truncate>
                  {noKnowledgeBase ? t("search.box.chooseKnowledgeBases") : names.length === 1 ? names[0] : t("search.box.knowledgeBases", { count: names.length })}
                </Text>
                <LuChevronDown />
              </Button>
            </Popover.Trigger>
            <Portal>
              <Popover.Positioner>
                <Popover.Content width="sm" data-testid="search-kb-popover">
                  <Popover.Body p="3">
                    <Stack gap="2">
                      <Text fontSize="sm" fontWeight="medium">
                        {t("search.box.searchIn")}
                      </Text>
                      <KnowledgeBasePicker choices={choices} value={chosen} onChange={onChosen} testId="search-kb" />
                    </Stack>
                  </Popover.Body>
                </Popover.Content>
              </Popover.Positioner>
            </Portal>
          </Popover.Root>
          <Input
            variant="flushed"
            border="none"
            size={size}
            px="3"
            flex="1"
            minWidth="0"
            placeholder={t("search.box.placeholder")}
            value={question}
            maxLength={QUESTION_MAX_LENGTH}
            onChange={(event) => onQuestion(event.target.value)}
            aria-label={t("search.box.placeholder")}
            autoFocus={prominent}
            data-testid="search-input"
          />
          <Button type="submit" colorPalette="brand" size={size} loading={busy} disabled={!question.trim() || noKnowledgeBase} data-testid="search-submit">
            <LuSearch /> {t("search.box.search")}
          </Button>
        </HStack>
      </form>
      {noKnowledgeBase && choices.length > 0 && (
        <Text fontSize="xs" color="fg.muted" ps="2" data-testid="search-kb-hint">
          {t("search.box.chooseHint")}
        </Text>
      )}
    </Stack>
  );
}

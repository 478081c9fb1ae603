import { Box, Button, Checkbox, Code, HStack, IconButton, Input, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuLock, LuPlus, LuTrash2 } from "react-icons/lu";
import { problemText, type FieldProblems } from "../../../errors";
import { KNOWLEDGE_VARIABLE, type VariableDraft } from "./assistantDraft";

interface PromptVariablesEditorProps {
  variables: VariableDraft[];
  problems: FieldProblems;
  onChange: (variables: VariableDraft[], touchedIndex?: number) => void;
}

/** The system prompt's variables: a key and whether it may be left out. `knowledge` is reserved: always first, never renamed or removed. */
export function PromptVariablesEditor({ variables, problems, onChange }: PromptVariablesEditorProps) {
  const { t, i18n } = useTranslation();
  const set = (index: number, patch: Partial<VariableDraft>) => onChange(variables.map((variable, at) => (at === index ? { ...variable, ...patch } : variable)), index);

  return (
    <Stack gap="2" data-testid="prompt-variables">
      <HStack px="1" gap="3" fontSize="xs" color="fg.muted" fontWeight="medium">
        <Text flex="1">{t("chat.settings.variableKey")}</Text>
        <Text width="24">{t("chat.settings.variableOptional")}</Text>
        <Box width="8" />
      </HStack>
      {variables.map((variable, index) => {
        const reserved = variable.key === KNOWLEDGE_VARIABLE && index === 0;
        const problem = problemText(i18n, problems[`promptVariables.${index}`]);
        return (
          <Stack key={index} gap="1">
            <HStack gap="3">
              {reserved ? (
                <HStack flex="1" h="9" px="3" gap="2" bg="bg.subtle" borderWidth="1px" rounded="l2" title={t("chat.settings.knowledgeReserved")}>
                  <LuLock />
                  <Code variant="plain" fontSize="sm">{`{${KNOWLEDGE_VARIABLE}}`}</Code>
                  <Text fontSize="xs" color="fg.muted" truncate>
                    {t("chat.settings.knowledgeReserved")}
                  </Text>
                </HStack>
              ) : (
                <Input
                  flex="1"
                  size="sm"
                  fontFamily="mono"
                  value={variable.key}
                  placeholder={t("chat.settings.variablePlaceholder")}
                  aria-invalid={!!problem}
                  borderColor={problem ? "border.error" : undefined}
                  onChange={(event) => set(index, { key: event.target.value })}
                  data-testid="prompt-variable-key"
                />
              )}
              <Box width="24">
                <Checkbox.Root
                  checked={variable.optional}
                  onCheckedChange={(details) => set(index, { optional: details.checked === true })}
                  colorPalette="brand"
                  aria-label={t("chat.settings.variableOptional")}
                  data-testid="prompt-variable-optional"
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                </Checkbox.Root>
              </Box>
              <IconButton
                size="sm"
                variant="ghost"
                colorPalette="red"
                visibility={reserved ? "hidden" : undefined}
                aria-label={t("common.delete")}
                onClick={() => onChange(variables.filter((_, at) => at !== index))}
              >
                <LuTrash2 />
              </IconButton>
            </HStack>
            {problem && (
              <Text fontSize="xs" color="fg.error" px="1">
                {problem}
              </Text>
            )}
          </Stack>
        );
      })}
      <Button size="xs" variant="outline" alignSelf="flex-start" onClick={() => onChange([...variables, { key: "", optional: true }])} data-testid="prompt-variable-add">
        <LuPlus /> {t("chat.settings.addVariable")}
      </Button>
    </Stack>
  );
}

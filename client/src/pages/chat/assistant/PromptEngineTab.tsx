import { Code, Grid, Input, Separator, Stack, Text, Textarea } from "@chakra-ui/react";
import { Trans, useTranslation } from "react-i18next";
import { CrossLanguagesField } from "../../../components/CrossLanguagesField";
import { FormField } from "../../../components/FormField";
import { useTopKRange } from "../../../components/useTopKRange";
import type { FieldProblems } from "../../../errors";
import type { AssistantFormChoicesQuery } from "../../../graphql/gql/graphql";
import { useFixed } from "../../../hooks/useFixed";
import { round2, WeightSlider } from "../../../components/WeightSlider";
import type { DraftEditor } from "./draftEditor";
import { isBuiltinChatModel, ModelOptionSelect } from "../../../components/ModelOptionSelect";
import { PromptVariablesEditor } from "./PromptVariablesEditor";
import { SettingSwitch } from "./SettingSwitch";

export function PromptEngineTab({ draft, edit, error, problems, choices }: DraftEditor & { problems: FieldProblems; choices: AssistantFormChoicesQuery | undefined }) {
  const { t } = useTranslation();
  const fixed = useFixed();
  const keywordWeight = round2(1 - draft.vectorSimilarityWeight);
  const topKRange = useTopKRange();

  return (
    <Stack gap="5">
      <FormField label={t("chat.settings.systemPrompt")} required error={error("systemPrompt")} helper={t("chat.settings.systemPromptHelp")}>
        <Textarea name="systemPrompt" rows={9} fontSize="sm" lineHeight="tall" value={draft.systemPrompt} onChange={(event) => edit("systemPrompt", event.target.value)} data-testid="assistant-system-prompt" />
      </FormField>

      <Stack gap="2">
        <Text fontWeight="medium" fontSize="sm">
          {t("chat.settings.variables")}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          <Trans i18nKey="chat.settings.variablesHelp" components={{ code: <Code size="sm" /> }} />
        </Text>
        <PromptVariablesEditor variables={draft.promptVariables} problems={problems} onChange={(variables) => edit("promptVariables", variables)} />
        {error("promptVariables") && (
          <Text fontSize="xs" color="fg.error">
            {error("promptVariables")}
          </Text>
        )}
      </Stack>

      <Separator />
      <Grid templateColumns={{ base: "1fr", md: "1fr 1fr" }} gap="4">
        <FormField label={t("chat.settings.topN")} error={error("topN")} helper={t("chat.settings.topNHelp")}>
          <Input type="number" name="topN" min={1} max={30} value={draft.topN} onChange={(event) => edit("topN", event.target.value)} data-testid="assistant-top-n" />
        </FormField>
        <FormField label={t("chat.settings.topK")} error={error("topK")} helper={t("chat.settings.topKHelp")}>
          <Input type="number" name="topK" min={topKRange.min} max={topKRange.max} value={draft.topK} onChange={(event) => edit("topK", event.target.value)} data-testid="assistant-top-k" />
        </FormField>
      </Grid>
      <FormField label={t("chat.settings.similarityThreshold")} error={error("similarityThreshold")} helper={t("chat.settings.similarityThresholdHelp")}>
        <WeightSlider value={draft.similarityThreshold} onChange={(value) => edit("similarityThreshold", value)} label={t("chat.settings.similarityThreshold")} testId="assistant-similarity" />
      </FormField>
      <FormField
        label={t("chat.settings.keywordWeight")}
        error={error("vectorSimilarityWeight")}
        helper={t(draft.rerankModel ? "chat.settings.rerankWeight" : "chat.settings.vectorWeight", { value: fixed(draft.vectorSimilarityWeight) })}
      >
        <WeightSlider value={keywordWeight} onChange={(value) => edit("vectorSimilarityWeight", round2(1 - value))} label={t("chat.settings.keywordWeight")} testId="assistant-keyword-weight" />
      </FormField>
      <FormField label={t("chat.settings.rerankModel")} error={error("rerankModel")} helper={t("chat.settings.rerankHelp")}>
        <ModelOptionSelect name="rerankModel" value={draft.rerankModel} models={choices?.rerankModels ?? []} emptyLabel={t("chat.settings.noRerank")} onChange={(value) => edit("rerankModel", value)} testId="assistant-rerank" />
      </FormField>

      <Separator />
      <Stack gap="4">
        <SettingSwitch label={t("chat.settings.multiTurnRefine")} help={t("chat.settings.multiTurnRefineHelp")} checked={draft.multiTurnRefine} onChange={(on) => edit("multiTurnRefine", on)} testId="assistant-multi-turn" />
        <SettingSwitch label={t("chat.settings.keywordExtraction")} help={t("chat.settings.keywordExtractionHelp")} checked={draft.keywordExtraction} onChange={(on) => edit("keywordExtraction", on)} testId="assistant-keywords" />
        <SettingSwitch label={t("chat.settings.selfRag")} help={t("chat.settings.selfRagHelp")} checked={draft.selfRag} onChange={(on) => edit("selfRag", on)} testId="assistant-self-rag" />
      </Stack>
      <CrossLanguagesField
        value={draft.crossLanguages}
        languages={choices?.knowledgeBaseLanguages ?? []}
        builtin={isBuiltinChatModel(draft.chatModel, choices)}
        onChange={(languages) => edit("crossLanguages", languages)}
        testId="assistant-cross-languages"
      />
    </Stack>
  );
}

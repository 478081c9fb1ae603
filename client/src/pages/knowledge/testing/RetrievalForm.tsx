import { Button, Flex, Input, NativeSelect, Stack, Text, Textarea } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import type { FormEvent, KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuPlay, LuRotateCcw } from "react-icons/lu";
import { CrossLanguagesField } from "../../../components/CrossLanguagesField";
import { FormField } from "../../../components/FormField";
import { round2, WeightSlider } from "../../../components/WeightSlider";
import { CrossLanguageChoicesDocument } from "../../../graphql/gql/graphql";
import { useFixed } from "../../../hooks/useFixed";
import { sameSettings } from "./retrievalSettings";
import type { RetrievalTestState } from "./useRetrievalTest";

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

/** The question, the retrieval settings it is tested with, and the run button (or Ctrl/⌘ + Enter in the question). */
export function RetrievalForm({ state }: { state: RetrievalTestState }) {
  const { t } = useTranslation();

  function submit(event?: FormEvent) {
    event?.preventDefault();
    state.submit();
  }

  function submitOnShortcut(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  }

  return (
    <form onSubmit={submit} noValidate data-testid="retrieval-form">
      <Stack gap="5" bg="bg.panel" borderWidth="1px" rounded="l3" p="5">
        <FormField label={t("retrievalTest.question")} required error={state.problemText("question")}>
          <Textarea
            name="question"
            rows={4}
            autoresize
            maxHeight="60"
            placeholder={t("retrievalTest.questionPlaceholder")}
            value={state.question}
            onChange={(event) => state.setQuestion(event.target.value)}
            onKeyDown={submitOnShortcut}
            data-testid="retrieval-question"
          />
        </FormField>

        <RetrievalSettingsFields state={state} />

        <Stack gap="1.5">
          <Button type="submit" colorPalette="brand" loading={state.loading} data-testid="retrieval-run">
            <LuPlay /> {t("retrievalTest.run")}
          </Button>
          <Text fontSize="xs" color="fg.subtle" textAlign="center">
            {t("retrievalTest.shortcut", { keys: isMac ? "⌘ + Enter" : "Ctrl + Enter" })}
          </Text>
        </Stack>
      </Stack>
    </form>
  );
}

/** Similarity threshold, keyword weight, rerank model, top K and cross-language search, with "restore defaults". */
function RetrievalSettingsFields({ state }: { state: RetrievalTestState }) {
  const { t } = useTranslation();
  const fixed = useFixed();
  const { settings, edit, rerankModels } = state;
  const { data: languageData } = useQuery(CrossLanguageChoicesDocument);
  const keywordWeight = round2(1 - settings.vectorSimilarityWeight);
  return (
    <Stack gap="4" pt="4" borderTopWidth="1px" borderColor="border.muted">
      <Flex justify="space-between" align="center" gap="2">
        <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wider">
          {t("retrievalTest.settings")}
        </Text>
        {!sameSettings(settings, state.defaults) && (
          <Button size="2xs" variant="ghost" onClick={state.restoreDefaults} title={t("retrievalTest.defaultsHelp")} data-testid="retrieval-restore-defaults">
            <LuRotateCcw /> {t("retrievalTest.restoreDefaults")}
          </Button>
        )}
      </Flex>
      <FormField label={t("retrievalTest.similarityThreshold")} helper={t("retrievalTest.similarityThresholdHelp")} error={state.problemText("similarityThreshold")}>
        <WeightSlider value={settings.similarityThreshold} onChange={(value) => edit("similarityThreshold", value)} label={t("retrievalTest.similarityThreshold")} testId="retrieval-threshold" />
      </FormField>
      <FormField
        label={t("retrievalTest.keywordWeight")}
        helper={t(settings.rerankModel ? "retrievalTest.rerankWeight" : "retrievalTest.vectorWeight", { value: fixed(settings.vectorSimilarityWeight) })}
        error={state.problemText("vectorSimilarityWeight")}
      >
        <WeightSlider value={keywordWeight} onChange={(value) => edit("vectorSimilarityWeight", round2(1 - value))} label={t("retrievalTest.keywordWeight")} testId="retrieval-keyword-weight" />
      </FormField>
      <FormField label={t("retrievalTest.rerankModel")} helper={t("retrievalTest.rerankHelp")} error={state.problemText("rerankModel")}>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field name="rerankModel" value={settings.rerankModel} onChange={(event) => edit("rerankModel", event.target.value)} data-testid="retrieval-rerank">
            <option value="">{t("retrievalTest.noRerank")}</option>
            {settings.rerankModel && !rerankModels.some((model) => model.id === settings.rerankModel) && <option value={settings.rerankModel}>{settings.rerankModel}</option>}
            {rerankModels.map((model) => (
              <option key={model.id} value={model.id}>
                {model.builtin ? t("kb.config.builtinModel", { model: model.modelName }) : `${model.modelName} · ${model.provider}`}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      <FormField label={t("retrievalTest.topK")} required helper={t("retrievalTest.topKHelp")} error={state.problemText("topK")}>
        <Input size="sm" type="number" name="topK" min={state.topKRange.min} max={state.topKRange.max} value={settings.topK} onChange={(event) => edit("topK", event.target.value)} data-testid="retrieval-topk" />
      </FormField>
      <CrossLanguagesField value={settings.crossLanguages} languages={languageData?.knowledgeBaseLanguages ?? []} onChange={(languages) => edit("crossLanguages", languages)} testId="retrieval-cross-languages" />
    </Stack>
  );
}

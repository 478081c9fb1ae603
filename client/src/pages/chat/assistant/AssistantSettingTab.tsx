import { Grid, Input, NativeSelect, Stack, Textarea } from "@chakra-ui/react";
import type { ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../../components/FormField";
import type { AssistantFormChoicesQuery } from "../../../graphql/gql/graphql";
import { PhotoPicker } from "../../../components/PhotoPicker";
import { AssistantAvatar } from "./AssistantAvatar";
import type { AssistantDraft } from "./assistantDraft";
import { KnowledgeBasePicker } from "../../../components/KnowledgeBasePicker";
import { SettingSwitch } from "./SettingSwitch";
import type { DraftEditor } from "./draftEditor";

export function AssistantSettingTab({ draft, edit, error, reportProblem, choices }: DraftEditor & { choices: AssistantFormChoicesQuery | undefined }) {
  const { t } = useTranslation();
  const offered = choices?.knowledgeBaseLanguages ?? [];
  const languages = offered.includes(draft.language) ? offered : [draft.language, ...offered];

  const text = (key: keyof AssistantDraft & ("name" | "description" | "emptyResponse" | "opener")) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => edit(key, event.target.value);

  return (
    <Stack gap="5">
      <FormField label={t("chat.settings.name")} required error={error("name")}>
        <Input name="name" value={draft.name} onChange={text("name")} placeholder={t("chat.settings.namePlaceholder")} data-testid="assistant-name" />
      </FormField>
      <FormField label={t("chat.settings.avatar")} error={error("avatar")}>
        <PhotoPicker
          preview={<AssistantAvatar name={draft.name} avatar={draft.avatar} size="lg" />}
          value={draft.avatar}
          onChange={(avatar) => edit("avatar", avatar)}
          onProblem={(problem) => reportProblem("avatar", problem)}
          testId="assistant-avatar-input"
        />
      </FormField>
      <FormField label={t("chat.settings.description")} error={error("description")}>
        <Textarea name="description" rows={2} autoresize value={draft.description} onChange={text("description")} placeholder={t("chat.settings.descriptionPlaceholder")} />
      </FormField>
      <FormField label={t("chat.settings.knowledgeBases")} required={draft.promptVariables.some((variable) => variable.key === "knowledge" && !variable.optional)} error={error("knowledgeBaseIds")} helper={t("chat.settings.knowledgeBasesHelp")}>
        <KnowledgeBasePicker choices={choices?.knowledgeBases.items ?? []} value={draft.knowledgeBaseIds} onChange={(ids) => edit("knowledgeBaseIds", ids)} invalid={!!error("knowledgeBaseIds")} />
      </FormField>
      <Grid templateColumns={{ base: "1fr", md: "1fr 1fr" }} gap="4">
        <FormField label={t("chat.settings.language")} error={error("language")}>
          <NativeSelect.Root>
            <NativeSelect.Field name="language" value={draft.language} onChange={(event) => edit("language", event.target.value)} data-testid="assistant-language">
              {languages.map((language) => (
                <option key={language} value={language}>
                  {t(`kb.languages.${language}`, { defaultValue: language })}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        <FormField label={t("chat.settings.emptyResponse")} error={error("emptyResponse")} helper={t("chat.settings.emptyResponseHelp")}>
          <Input name="emptyResponse" value={draft.emptyResponse} onChange={text("emptyResponse")} data-testid="assistant-empty-response" />
        </FormField>
      </Grid>
      <FormField label={t("chat.settings.opener")} error={error("opener")} helper={t("chat.settings.openerHelp")}>
        <Textarea name="opener" rows={2} autoresize value={draft.opener} onChange={text("opener")} data-testid="assistant-opener" />
      </FormField>
      <Grid templateColumns={{ base: "1fr", md: "1fr 1fr" }} gap="4">
        <SettingSwitch label={t("chat.settings.showQuote")} help={t("chat.settings.showQuoteHelp")} checked={draft.showQuote} onChange={(on) => edit("showQuote", on)} testId="assistant-show-quote" />
        <SettingSwitch
          label={t("chat.settings.tts")}
          help={choices && !choices.defaultModels.tts ? t("chat.settings.ttsNoModel") : t("chat.settings.ttsHelp")}
          checked={draft.tts}
          onChange={(on) => edit("tts", on)}
          testId="assistant-tts"
        />
      </Grid>
    </Stack>
  );
}

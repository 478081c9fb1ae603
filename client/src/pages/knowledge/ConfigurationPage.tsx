import { Box, Button, Flex, Grid, HStack, Input, NativeSelect, SegmentGroup, Separator, Skeleton, Stack, Textarea } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuLock } from "react-icons/lu";
import { FormField } from "../../components/FormField";
import { notify } from "../../components/toaster";
import { describeError, fieldProblemsOf, hasNoProblems, problemText, type FieldProblems } from "../../errors";
import { useFormatters } from "../../format";
import {
  KnowledgeBaseChoicesDocument,
  UpdateKnowledgeBaseDocument,
  type AvailableModelOptionFragment,
  type KnowledgeBaseInput,
  type KnowledgeBaseSettingsFragment,
} from "../../graphql/gql/graphql";
import { ChunkMethodGuide } from "./configuration/ChunkMethodGuide";
import { KnowledgeBaseTasks } from "./configuration/KnowledgeBaseTasks";
import { PhotoPicker } from "../../components/PhotoPicker";
import { ChunkMethodSelect, FieldGroup, ParserFields } from "./configuration/ParserFields";
import { topKProblem } from "../../components/topKRange";
import { useTopKRange } from "../../components/useTopKRange";
import { checkParserDraft, PARSER_PROBLEM_PREFIX, parserConfigPatch, parserDraftOf } from "./configuration/parserSettings";
import type { ParamDraft } from "../../components/paramForm.logic";
import { KnowledgeAvatar } from "../../components/KnowledgeAvatar";
import { KnowledgeBaseLayout } from "./KnowledgeBaseLayout";
import { SectionHeading } from "./SectionHeading";
import { round2, WeightSlider } from "../../components/WeightSlider";

interface Draft {
  name: string;
  avatar: string;
  description: string;
  language: string;
  permission: string;
  embeddingModel: string;
  rerankModel: string;
  chunkMethod: string;
  similarityThreshold: number;
  vectorSimilarityWeight: number;
  topK: string;
}

function draftOf(kb: KnowledgeBaseSettingsFragment): Draft {
  return {
    name: kb.name,
    avatar: kb.avatar ?? "",
    description: kb.description ?? "",
    language: kb.language,
    permission: kb.permission,
    embeddingModel: kb.embeddingModel,
    rerankModel: kb.rerankModel ?? "",
    chunkMethod: kb.chunkMethod,
    similarityThreshold: kb.similarityThreshold,
    vectorSimilarityWeight: kb.vectorSimilarityWeight,
    topK: String(kb.topK),
  };
}


function ModelSelect({ name, value, models, optional, disabled, onChange }: { name: string; value: string; models: AvailableModelOptionFragment[]; optional?: boolean; disabled?: boolean; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const known = value === "" || models.some((model) => model.id === value);
  return (
    <NativeSelect.Root disabled={disabled}>
      <NativeSelect.Field name={name} value={value} onChange={(event) => onChange(event.target.value)} data-testid={`kb-${name}`}>
        {optional && <option value="">{t("kb.config.noRerank")}</option>}
        {!known && <option value={value}>{value}</option>}
        {models.map((model) => (
          <option key={model.id} value={model.id}>
            {model.builtin ? t("kb.config.builtinModel", { model: model.modelName }) : `${model.modelName} · ${model.provider}`}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

function ConfigurationForm({ kb }: { kb: KnowledgeBaseSettingsFragment }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const { data: choices } = useQuery(KnowledgeBaseChoicesDocument);
  const [updateKnowledgeBase, { loading: saving }] = useMutation(UpdateKnowledgeBaseDocument);
  const saved = useRef(draftOf(kb));
  const savedParser = useRef(parserDraftOf(kb.parserConfig));
  const [draft, setDraft] = useState<Draft>(saved.current);
  const [parser, setParser] = useState<ParamDraft>(savedParser.current);
  const [problems, setProblems] = useState<FieldProblems>({});

  const languages = choices?.knowledgeBaseLanguages ?? [kb.language];
  const methods = choices?.chunkMethods ?? [];
  const topKRange = useTopKRange();
  const parserSpecs = methods.find((method) => method.name === draft.chunkMethod)?.params ?? [];
  const models = choices?.availableModels ?? [];
  const embeddingLocked = kb.chunkCount > 0;
  const error = (field: string) => problemText(i18n, problems[field]);

  function edit<K extends keyof Draft>(key: K, value: Draft[K]) {
    setDraft((current) => ({ ...current, [key]: value }));
    setProblems((current) => ({ ...current, [key]: undefined }));
  }

  function check(): FieldProblems {
    const found: FieldProblems = { ...checkParserDraft(parserSpecs, parser) };
    if (!draft.name.trim()) found.name = { key: "errors.knowledge.nameRequired" };
    if (!draft.language) found.language = { key: "errors.knowledge.languageRequired" };
    const topKFault = topKProblem(draft.topK, topKRange, "errors.knowledge.between");
    if (topKFault) found.topK = topKFault;
    return found;
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const found = check();
    setProblems(found);
    if (!hasNoProblems(found)) {
      notify.error(t("errors.invalidInput"));
      return;
    }
    const before = saved.current;
    const input: KnowledgeBaseInput = {};
    if (draft.name.trim() !== before.name) input.name = draft.name.trim();
    if (draft.avatar !== before.avatar) input.avatar = draft.avatar || null;
    if (draft.description !== before.description) input.description = draft.description;
    if (draft.language !== before.language) input.language = draft.language;
    if (draft.permission !== before.permission) input.permission = draft.permission;
    if (draft.embeddingModel !== before.embeddingModel) input.embeddingModel = draft.embeddingModel;
    if (draft.rerankModel !== before.rerankModel) input.rerankModel = draft.rerankModel;
    if (draft.chunkMethod !== before.chunkMethod) input.chunkMethod = draft.chunkMethod;
    if (draft.similarityThreshold !== before.similarityThreshold) input.similarityThreshold = draft.similarityThreshold;
    if (draft.vectorSimilarityWeight !== before.vectorSimilarityWeight) input.vectorSimilarityWeight = draft.vectorSimilarityWeight;
    if (Number(draft.topK) !== Number(before.topK)) input.topK = Number(draft.topK);
    const patch = parserConfigPatch(parserSpecs, parser, kb.parserConfig);
    if (Object.keys(patch).length > 0) input.parserConfig = patch;
    try {
      if (Object.keys(input).length > 0) await updateKnowledgeBase({ variables: { id: kb.id, input } });
      notify.success("updated");
    } catch (failure) {
      const fromServer = fieldProblemsOf(failure);
      if (hasNoProblems(fromServer)) notify.error(describeError(failure, i18n));
      else {
        setProblems(fromServer);
        notify.error(describeError(failure, i18n));
      }
    }
  }

  function reset() {
    setDraft(saved.current);
    setParser(savedParser.current);
    setProblems({});
  }

  const keywordWeight = round2(1 - draft.vectorSimilarityWeight);
  const fileTypes = methods.find((method) => method.name === draft.chunkMethod)?.fileTypes ?? [];

  return (
    <Grid templateColumns={{ base: "minmax(0, 1fr)", xl: "minmax(0, 1fr) 20rem" }} gap="6" alignItems="start">
      <form onSubmit={(event) => void save(event)} noValidate data-testid="kb-configuration-form">
        <Stack gap="6" bg="bg.panel" borderWidth="1px" rounded="l3" p={{ base: "5", md: "8" }}>
          <FieldGroup title={t("kb.config.basicsGroup")}>
            <FormField label={t("kb.field.name")} required error={error("name")}>
              <Input name="name" value={draft.name} onChange={(event) => edit("name", event.target.value)} data-testid="kb-name-input" />
            </FormField>
            <FormField label={t("kb.field.photo")} error={error("avatar")} helper={t("kb.help.photo")}>
              <PhotoPicker
                preview={<KnowledgeAvatar name={draft.name} avatar={draft.avatar} size="xl" />}
                value={draft.avatar}
                onChange={(avatar) => edit("avatar", avatar)}
                onProblem={(problem) => setProblems((current) => ({ ...current, avatar: problem }))}
                testId="kb-photo-input"
              />
            </FormField>
            <FormField label={t("kb.field.description")} error={error("description")}>
              <Textarea name="description" rows={3} value={draft.description} onChange={(event) => edit("description", event.target.value)} />
            </FormField>
            <Grid templateColumns={{ base: "1fr", md: "1fr 1fr" }} gap="4">
              <FormField label={t("kb.field.language")} required error={error("language")}>
                <NativeSelect.Root>
                  <NativeSelect.Field name="language" value={draft.language} onChange={(event) => edit("language", event.target.value)} data-testid="kb-language">
                    {languages.map((language) => (
                      <option key={language} value={language}>
                        {t(`kb.languages.${language}`, { defaultValue: language })}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
              <FormField label={t("kb.field.permission")} error={error("permission")} helper={t("kb.help.permission")}>
                <SegmentGroup.Root value={draft.permission} onValueChange={(details) => details.value && edit("permission", details.value)} size="sm" data-testid="kb-permission">
                  <SegmentGroup.Indicator />
                  <SegmentGroup.Items items={["me", "team"].map((value) => ({ value, label: t(`kb.permission.${value}`) }))} />
                </SegmentGroup.Root>
              </FormField>
            </Grid>
          </FieldGroup>

          <Separator />
          <FieldGroup title={t("kb.config.modelsGroup")}>
            <Grid templateColumns={{ base: "1fr", md: "1fr 1fr" }} gap="4">
              <FormField
                label={t("kb.field.embeddingModel")}
                error={error("embeddingModel")}
                helper={embeddingLocked ? t("kb.help.embeddingLocked", { count: kb.chunkCount, formatted: format.number(kb.chunkCount) }) : t("kb.help.embeddingModel")}
                disabled={embeddingLocked}
              >
                <HStack width="full" gap="2">
                  {embeddingLocked && <LuLock aria-hidden />}
                  <Box flex="1">
                    <ModelSelect name="embeddingModel" value={draft.embeddingModel} models={models.filter((model) => model.modelType === "embedding")} disabled={embeddingLocked} onChange={(value) => edit("embeddingModel", value)} />
                  </Box>
                </HStack>
              </FormField>
              <FormField label={t("kb.field.rerankModel")} error={error("rerankModel")} helper={t("kb.help.rerankModel")}>
                <ModelSelect name="rerankModel" value={draft.rerankModel} optional models={models.filter((model) => model.modelType === "rerank")} onChange={(value) => edit("rerankModel", value)} />
              </FormField>
            </Grid>
            <FormField label={t("kb.field.chunkMethod")} error={error("chunkMethod")} helper={t("kb.help.chunkMethod")}>
              <ChunkMethodSelect value={draft.chunkMethod} methods={methods.length ? methods.map((method) => method.name) : [draft.chunkMethod]} onChange={(value) => edit("chunkMethod", value)} />
            </FormField>
          </FieldGroup>

          <Separator />
          <ParserFields
            specs={parserSpecs}
            draft={parser}
            problems={problems}
            onChange={(next, touched) => {
              setParser(next);
              setProblems((current) => ({ ...current, ...Object.fromEntries(touched.map((key) => [`${PARSER_PROBLEM_PREFIX}${key}`, undefined])) }));
            }}
          />

          <Separator />
          <FieldGroup title={t("kb.config.retrievalGroup")} description={t("kb.help.retrieval")}>
            <FormField label={t("kb.field.similarityThreshold")} error={error("similarityThreshold")} helper={t("kb.help.similarityThreshold")}>
              <WeightSlider value={draft.similarityThreshold} onChange={(value) => edit("similarityThreshold", value)} label={t("kb.field.similarityThreshold")} testId="kb-similarity" />
            </FormField>
            <FormField
              label={t("kb.field.keywordWeight")}
              error={error("vectorSimilarityWeight")}
              helper={t("kb.help.keywordWeight", { vector: format.number(draft.vectorSimilarityWeight, 2) })}
            >
              <WeightSlider value={keywordWeight} onChange={(value) => edit("vectorSimilarityWeight", round2(1 - value))} label={t("kb.field.keywordWeight")} testId="kb-keyword-weight" />
            </FormField>
            <FormField label={t("kb.field.topK")} required error={error("topK")} helper={t("kb.help.topK")}>
              <Input type="number" name="topK" min={topKRange.min} max={topKRange.max} width={{ base: "full", md: "40" }} value={draft.topK} onChange={(event) => edit("topK", event.target.value)} />
            </FormField>
          </FieldGroup>

          <Flex justify="flex-end" gap="3" pt="2">
            <Button variant="outline" onClick={reset} disabled={saving}>
              {t("common.reset")}
            </Button>
            <Button type="submit" colorPalette="brand" loading={saving} data-testid="kb-save">
              {t("common.save")}
            </Button>
          </Flex>
        </Stack>
      </form>
      <Stack gap="6" position={{ xl: "sticky" }} top={{ xl: "24" }}>
        <KnowledgeBaseTasks knowledgeBaseId={kb.id} />
        <ChunkMethodGuide method={draft.chunkMethod} fileTypes={fileTypes} />
      </Stack>
    </Grid>
  );
}

export default function ConfigurationPage() {
  return (
    <KnowledgeBaseLayout section="configuration">
      {(kb) => (
        <>
          <SectionHeading page="configuration" />
          {kb ? <ConfigurationForm key={`${kb.id}-${kb.updatedAt}`} kb={kb} /> : <Skeleton height="96" />}
        </>
      )}
    </KnowledgeBaseLayout>
  );
}

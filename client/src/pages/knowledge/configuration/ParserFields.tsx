import { Box, Button, Grid, HStack, IconButton, Input, NativeSelect, SegmentGroup, Slider, Stack, Switch, Text, Textarea } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuPlus, LuTrash2 } from "react-icons/lu";
import { FormField } from "../../../components/FormField";
import { problemText, type FieldProblems } from "../../../errors";
import { TagListInput } from "../TagListInput";
import { fieldsOf, LAYOUT_CHOICES, type ParserDraft, type RaptorDraft } from "./parserSettings";

interface ParserFieldsProps {
  method: string;
  draft: ParserDraft;
  problems: FieldProblems;
  onChange: (draft: ParserDraft, touched: string[]) => void;
}

/** A titled group of settings. */
export function FieldGroup({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Stack gap="4">
      <Stack gap="0.5">
        <Text fontWeight="semibold">{title}</Text>
        {description && (
          <Text fontSize="sm" color="fg.muted">
            {description}
          </Text>
        )}
      </Stack>
      {children}
    </Stack>
  );
}

/** A 0…max whole-number slider with its value beside it (auto-keywords, auto-questions). */
export function CountSlider({ label, helper, value, max, onChange, testId }: { label: string; helper?: string; value: number; max: number; onChange: (value: number) => void; testId?: string }) {
  return (
    <FormField label={label} helper={helper}>
      <HStack gap="4" width="full">
        <Slider.Root flex="1" min={0} max={max} step={1} value={[value]} onValueChange={(details) => onChange(details.value[0])} colorPalette="brand" data-testid={testId}>
          <Slider.Control>
            <Slider.Track>
              <Slider.Range />
            </Slider.Track>
            <Slider.Thumbs />
          </Slider.Control>
        </Slider.Root>
        <Input type="number" min={0} max={max} width="20" value={String(value)} onChange={(event) => onChange(Math.max(0, Math.min(max, Math.round(Number(event.target.value) || 0))))} />
      </HStack>
    </FormField>
  );
}

/** The parser settings a chunk method reads: shared by the knowledge base's configuration and a document's chunk-method dialog. */
export function ParserFields({ method, draft, problems, onChange }: ParserFieldsProps) {
  const { t, i18n } = useTranslation();
  const fields = fieldsOf(method);
  const error = (key: string) => problemText(i18n, problems[`parserConfig.${key}`]);
  const set = <K extends keyof ParserDraft>(key: K, value: ParserDraft[K], touched: string[] = [key]) => onChange({ ...draft, [key]: value }, touched);
  const setRaptor = (key: keyof RaptorDraft, value: string | boolean) => set("raptor", { ...draft.raptor, [key]: value }, [`raptor.${key}`]);
  const setRange = (index: number, side: "from" | "to", value: string) =>
    set(
      "pages",
      draft.pages.map((range, i) => (i === index ? { ...range, [side]: value } : range)),
      [`pages.${index}.0`, `pages.${index}.1`, `pages.${index}`],
    );

  return (
    <Stack gap="8">
      {(fields.has("layout") || fields.has("chunkTokens") || fields.has("delimiter") || fields.has("taskPageSize") || fields.has("html4excel")) && (
        <FieldGroup title={t("kb.config.parsingGroup")}>
          {fields.has("layout") && (
            <FormField label={t("kb.field.layoutRecognize")} helper={t("kb.help.layoutRecognize")}>
              <SegmentGroup.Root value={draft.layout_recognize} onValueChange={(details) => details.value && set("layout_recognize", details.value)} size="sm" data-testid="parser-layout">
                <SegmentGroup.Indicator />
                <SegmentGroup.Items items={LAYOUT_CHOICES.map((value) => ({ value, label: value === "DeepDOC" ? "DeepDOC" : t("kb.config.plainText") }))} />
              </SegmentGroup.Root>
            </FormField>
          )}
          <Grid templateColumns={{ base: "1fr", md: "1fr 1fr" }} gap="4">
            {fields.has("chunkTokens") && (
              <FormField label={t("kb.field.chunkTokenNumber")} required error={error("chunk_token_num")} helper={t("kb.help.chunkTokenNumber")}>
                <Input type="number" min={1} name="chunk_token_num" value={draft.chunk_token_num} onChange={(event) => set("chunk_token_num", event.target.value)} />
              </FormField>
            )}
            {fields.has("delimiter") && (
              <FormField label={t("kb.field.delimiter")} required error={error("delimiter")} helper={t("kb.help.delimiter")}>
                <Input name="delimiter" fontFamily="mono" value={draft.delimiter} onChange={(event) => set("delimiter", event.target.value)} />
              </FormField>
            )}
            {fields.has("taskPageSize") && (
              <FormField label={t("kb.field.taskPageSize")} required error={error("task_page_size")} helper={t("kb.help.taskPageSize")}>
                <Input type="number" min={1} name="task_page_size" value={draft.task_page_size} onChange={(event) => set("task_page_size", event.target.value)} />
              </FormField>
            )}
          </Grid>
          {fields.has("html4excel") && (
            <Switch.Root checked={draft.html4excel} onCheckedChange={(details) => set("html4excel", details.checked)} colorPalette="brand">
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label>
                {t("kb.field.html4excel")}
                <Text as="span" display="block" fontSize="xs" color="fg.muted" fontWeight="normal">
                  {t("kb.help.html4excel")}
                </Text>
              </Switch.Label>
            </Switch.Root>
          )}
        </FieldGroup>
      )}

      {fields.has("pages") && (
        <FieldGroup title={t("kb.field.pageRanges")} description={t("kb.help.pageRanges")}>
          <Stack gap="3" data-testid="page-ranges">
            {draft.pages.map((range, index) => (
              <HStack key={index} gap="3" align="flex-start" data-testid="page-range">
                <Box flex="1">
                  <FormField label={t("kb.pages.from")} error={error(`pages.${index}.0`) ?? error(`pages.${index}`)}>
                    <Input type="number" min={1} value={range.from} placeholder={t("kb.pages.from")} onChange={(event) => setRange(index, "from", event.target.value)} data-testid="page-from" />
                  </FormField>
                </Box>
                <Box flex="1">
                  <FormField label={t("kb.pages.to")} error={error(`pages.${index}.1`)}>
                    <Input type="number" min={1} value={range.to} placeholder={t("kb.pages.toPlaceholder")} onChange={(event) => setRange(index, "to", event.target.value)} data-testid="page-to" />
                  </FormField>
                </Box>
                <IconButton
                  mt="7"
                  variant="ghost"
                  colorPalette="red"
                  aria-label={t("kb.pages.remove")}
                  onClick={() => set("pages", draft.pages.filter((_, i) => i !== index), ["pages"])}
                >
                  <LuTrash2 />
                </IconButton>
              </HStack>
            ))}
            <Button
              variant="outline"
              size="sm"
              alignSelf="flex-start"
              borderStyle="dashed"
              onClick={() => {
                const last = draft.pages[draft.pages.length - 1];
                const from = last?.to ? String(Number(last.to)) : "1";
                set("pages", [...draft.pages, { from, to: String(Number(from) + 100000 - 1) }], ["pages"]);
              }}
              data-testid="page-range-add"
            >
              <LuPlus /> {t("kb.pages.add")}
            </Button>
          </Stack>
        </FieldGroup>
      )}

      {(fields.has("autoKeywords") || fields.has("autoQuestions")) && (
        <FieldGroup title={t("kb.config.enrichmentGroup")} description={t("kb.help.enrichment")}>
          <Grid templateColumns={{ base: "1fr", md: "1fr 1fr" }} gap="5">
            <CountSlider label={t("kb.field.autoKeywords")} helper={t("kb.help.autoKeywords")} value={draft.auto_keywords} max={32} onChange={(value) => set("auto_keywords", value)} testId="auto-keywords" />
            <CountSlider label={t("kb.field.autoQuestions")} helper={t("kb.help.autoQuestions")} value={draft.auto_questions} max={10} onChange={(value) => set("auto_questions", value)} testId="auto-questions" />
          </Grid>
        </FieldGroup>
      )}

      {fields.has("raptor") && (
        <FieldGroup title="RAPTOR" description={t("kb.help.raptor")}>
          <Switch.Root checked={draft.raptor.use_raptor} onCheckedChange={(details) => setRaptor("use_raptor", details.checked)} colorPalette="brand" data-testid="raptor-switch">
            <Switch.HiddenInput />
            <Switch.Control />
            <Switch.Label>{t("kb.field.useRaptor")}</Switch.Label>
          </Switch.Root>
          {draft.raptor.use_raptor && (
            <Stack gap="4" ps={{ md: "4" }} borderStartWidth={{ md: "2px" }} borderColor="brand.muted">
              <FormField label={t("kb.field.raptorPrompt")} required error={error("raptor.prompt")}>
                <Textarea rows={4} value={draft.raptor.prompt} onChange={(event) => setRaptor("prompt", event.target.value)} fontSize="sm" />
              </FormField>
              <Grid templateColumns={{ base: "1fr", md: "repeat(2, 1fr)", xl: "repeat(4, 1fr)" }} gap="4">
                <FormField label={t("kb.field.raptorMaxToken")} required error={error("raptor.max_token")}>
                  <Input type="number" min={1} max={2048} value={draft.raptor.max_token} onChange={(event) => setRaptor("max_token", event.target.value)} />
                </FormField>
                <FormField label={t("kb.field.raptorThreshold")} required error={error("raptor.threshold")}>
                  <Input type="number" min={0} max={1} step={0.01} value={draft.raptor.threshold} onChange={(event) => setRaptor("threshold", event.target.value)} />
                </FormField>
                <FormField label={t("kb.field.raptorMaxCluster")} required error={error("raptor.max_cluster")}>
                  <Input type="number" min={1} max={1024} value={draft.raptor.max_cluster} onChange={(event) => setRaptor("max_cluster", event.target.value)} />
                </FormField>
                <FormField label={t("kb.field.raptorSeed")} required error={error("raptor.random_seed")}>
                  <Input type="number" min={0} value={draft.raptor.random_seed} onChange={(event) => setRaptor("random_seed", event.target.value)} />
                </FormField>
              </Grid>
            </Stack>
          )}
        </FieldGroup>
      )}

      {fields.has("entityTypes") && (
        <FieldGroup title={t("kb.field.entityTypes")} description={t("kb.help.entityTypes")}>
          <TagListInput value={draft.entity_types} onChange={(value) => set("entity_types", value)} testId="entity-types" />
        </FieldGroup>
      )}
    </Stack>
  );
}

/** The chunk-method choice: every registered method, labelled from `chunkMethods.<name>.label`. */
export function ChunkMethodSelect({ value, methods, onChange }: { value: string; methods: string[]; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <NativeSelect.Root>
      <NativeSelect.Field name="chunkMethod" value={value} onChange={(event) => onChange(event.target.value)} data-testid="chunk-method">
        {methods.map((name) => (
          <option key={name} value={name}>
            {t(`chunkMethods.${name}.label`, { defaultValue: name })}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

import { Box, Button, HStack, IconButton, Input, NativeSelect, Stack } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuPlus, LuTrash2 } from "react-icons/lu";
import { FormField } from "../../../components/FormField";
import { ParamForm, ParamGroup, type ParamRendererProps } from "../../../components/ParamForm";
import type { ParamDraft, ParamProblems, ParamSpecView } from "../../../components/paramForm.logic";
import { TagListInput } from "../TagListInput";
import { PARSER_PROBLEM_PREFIX, withMethod, type PageRangeDraft } from "./parserSettings";

interface ParserFieldsProps {
  /** The chunk method's parameters, as the server declares them. */
  specs: ParamSpecView[];
  draft: ParamDraft;
  problems: ParamProblems;
  onChange: (draft: ParamDraft, touched: string[]) => void;
}

/** A titled group of settings. */
export function FieldGroup({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <ParamGroup title={title} description={description}>
      {children}
    </ParamGroup>
  );
}

/** Page ranges [from, to) of a PDF, added and removed one by one. */
function PageRangesInput({ spec, path, value, onChange, problemAt }: ParamRendererProps) {
  const { t } = useTranslation();
  const pages = (value ?? []) as PageRangeDraft[];
  const set = (next: PageRangeDraft[], touched = [path]) => onChange(next, touched);
  const setRange = (index: number, side: "from" | "to", text: string) =>
    set(
      pages.map((range, i) => (i === index ? { ...range, [side]: text } : range)),
      [`${path}.${index}.0`, `${path}.${index}.1`, `${path}.${index}`],
    );
  return (
    <FieldGroup title={t(spec.label)} description={spec.help ? t(spec.help) : undefined}>
      <Stack gap="3" data-testid="page-ranges">
        {pages.map((range, index) => (
          <HStack key={index} gap="3" align="flex-start" data-testid="page-range">
            <Box flex="1">
              <FormField label={t("kb.pages.from")} error={problemAt(`${index}.0`) ?? problemAt(`${index}`)}>
                <Input type="number" min={1} value={range.from} placeholder={t("kb.pages.from")} onChange={(event) => setRange(index, "from", event.target.value)} data-testid="page-from" />
              </FormField>
            </Box>
            <Box flex="1">
              <FormField label={t("kb.pages.to")} error={problemAt(`${index}.1`)}>
                <Input type="number" min={1} value={range.to} placeholder={t("kb.pages.toPlaceholder")} onChange={(event) => setRange(index, "to", event.target.value)} data-testid="page-to" />
              </FormField>
            </Box>
            <IconButton mt="7" variant="ghost" colorPalette="red" aria-label={t("kb.pages.remove")} onClick={() => set(pages.filter((_, i) => i !== index))}>
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
            const last = pages[pages.length - 1];
            const from = last?.to ? String(Number(last.to)) : "1";
            set([...pages, { from, to: String(Number(from) + 100000 - 1) }]);
          }}
          data-testid="page-range-add"
        >
          <LuPlus /> {t("kb.pages.add")}
        </Button>
      </Stack>
    </FieldGroup>
  );
}

/** A list of words as tags (the entity types of a knowledge graph). */
function TagsInput({ spec, path, value, onChange, problemAt }: ParamRendererProps) {
  const { t } = useTranslation();
  return (
    <FormField label={t(spec.label)} helper={spec.help ? t(spec.help) : undefined} error={problemAt()}>
      <TagListInput value={(value ?? []) as string[]} onChange={(next) => onChange(next)} testId={`param-${path}`} />
    </FormField>
  );
}

const RENDERERS = { pageRanges: PageRangesInput, tags: TagsInput };

/** The parser settings a chunk method reads, drawn from its ParamSpecs: shared by the knowledge base's configuration and a document's chunk-method dialog. */
export function ParserFields({ specs, draft, problems, onChange }: ParserFieldsProps) {
  return <ParamForm specs={specs} draft={withMethod(specs, draft)} onChange={onChange} problems={problems} problemPrefix={PARSER_PROBLEM_PREFIX} renderers={RENDERERS} />;
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

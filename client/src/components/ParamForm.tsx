import { HStack, Input, NativeSelect, SegmentGroup, Slider, Stack, Switch, Text, Textarea } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { problemText } from "../errors";
import { FormField } from "./FormField";
import { PasswordInput } from "./PasswordInput";
import { groupsOf, humanize, isShown, type ParamDraft, type ParamProblems, type ParamSpecView } from "./paramForm.logic";

/**
 * A form drawn from ParamSpecs (the server's self-description of parameters; see paramForm.logic.ts):
 * chunk-method settings, provider credentials, and next the flow components' parameters.
 *
 * - `specs`, `draft` (from `draftOf`), `onChange(draft, touched paths)`, `problems` keyed by path
 *   (`checkDraft`'s or the server's, under an optional `problemPrefix` such as "parserConfig.");
 * - parameters are drawn by type and `widget`; a `widget` the form does not know is drawn by
 *   `renderers[widget]`, which the feature supplies (e.g. page ranges, a tag list);
 * - `helpers` and `placeholders` override a parameter's help text and placeholder (e.g. "a stored key is kept");
 * - inputs are named `${namePrefix}${path}`; consecutive parameters of one `group` share a titled block, an
 *   object parameter is a titled block of its own parameters; hidden parameters are not drawn.
 */

export interface ParamRendererProps {
  spec: ParamSpecView;
  path: string;
  value: unknown;
  onChange: (value: unknown, touched?: string[]) => void;
  /** The problem text of a path under this parameter ("" for the parameter itself). */
  problemAt: (subPath?: string) => string | undefined;
}

interface ParamFormProps {
  specs: ParamSpecView[];
  draft: ParamDraft;
  onChange: (draft: ParamDraft, touched: string[]) => void;
  problems?: ParamProblems;
  problemPrefix?: string;
  renderers?: Record<string, (props: ParamRendererProps) => ReactNode>;
  helpers?: Record<string, string | undefined>;
  placeholders?: Record<string, string | undefined>;
  namePrefix?: string;
  /** Localises a problem's params (e.g. a field's label for its key); the default shows them as given. */
  describeProblem?: (problem: NonNullable<ParamProblems[string]>) => string | undefined;
}

/** A titled block of parameters. */
export function ParamGroup({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
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

export function ParamForm(props: ParamFormProps) {
  return <ParamList {...props} prefix="" />;
}

function ParamList({ specs, draft, onChange, prefix, ...rest }: ParamFormProps & { prefix: string }) {
  const { t } = useTranslation();
  const shown = specs.filter((spec) => isShown(spec, draft));
  const field = (spec: ParamSpecView) => (
    <ParamField
      key={spec.key}
      spec={spec}
      path={`${prefix}${spec.key}`}
      value={draft[spec.key]}
      onChange={(value, touched) => onChange({ ...draft, [spec.key]: value }, touched ?? [`${prefix}${spec.key}`])}
      {...rest}
    />
  );
  return (
    <Stack gap={prefix ? "4" : "8"}>
      {groupsOf(shown).map(({ group, specs: members }) =>
        group ? (
          <ParamGroup key={group} title={t(group)}>
            {members.map(field)}
          </ParamGroup>
        ) : (
          members.map(field)
        ),
      )}
    </Stack>
  );
}

interface ParamFieldProps extends Omit<ParamFormProps, "specs" | "draft" | "onChange"> {
  spec: ParamSpecView;
  path: string;
  value: unknown;
  onChange: (value: unknown, touched?: string[]) => void;
}

function ParamField({ spec, path, value, onChange, ...form }: ParamFieldProps) {
  const { t, i18n } = useTranslation();
  const { problems = {}, problemPrefix = "", renderers = {}, helpers = {}, placeholders = {}, namePrefix = "", describeProblem } = form;
  const problemAt = (subPath = "") => {
    const problem = problems[`${problemPrefix}${path}${subPath ? `.${subPath}` : ""}`];
    return problem && (describeProblem ? describeProblem(problem) : problemText(i18n, problem));
  };
  const label = t(spec.label, { defaultValue: humanize(spec.key) });
  const help = path in helpers ? helpers[path] : spec.help && i18n.exists(spec.help) ? t(spec.help) : undefined;
  const name = `${namePrefix}${path}`;
  const text = typeof value === "string" ? value : value === null || value === undefined ? "" : String(value);
  const placeholder = placeholders[path] ?? (typeof spec.default === "string" ? spec.default : undefined);
  const custom = spec.widget ? renderers[spec.widget] : undefined;

  if (spec.type === "object") {
    const inner = (value ?? {}) as ParamDraft;
    return (
      <ParamGroup title={label} description={help}>
        <ParamList {...form} specs={spec.params ?? []} draft={inner} onChange={(next, touched) => onChange(next, touched)} prefix={`${path}.`} />
      </ParamGroup>
    );
  }
  if (custom) return <>{custom({ spec, path, value, onChange, problemAt })}</>;
  if (spec.type === "boolean") {
    return (
      <Switch.Root checked={value === true} onCheckedChange={(details) => onChange(details.checked)} colorPalette="brand" data-testid={`param-${path}`}>
        <Switch.HiddenInput name={name} />
        <Switch.Control />
        <Switch.Label>
          {label}
          {help && (
            <Text as="span" display="block" fontSize="xs" color="fg.muted" fontWeight="normal">
              {help}
            </Text>
          )}
        </Switch.Label>
      </Switch.Root>
    );
  }

  const required = spec.required && (spec.default === null || spec.default === undefined);
  return (
    <FormField label={label} helper={help} error={problemAt()} required={required}>
      <ParamInput spec={spec} name={name} text={text} placeholder={placeholder} onChange={onChange} testId={`param-${path}`} />
    </FormField>
  );
}

function ParamInput({ spec, name, text, placeholder, onChange, testId }: { spec: ParamSpecView; name: string; text: string; placeholder?: string; onChange: (value: unknown) => void; testId: string }) {
  const { t } = useTranslation();
  const optionLabel = (option: ParamSpecView["options"][number]) => (option.label ? t(option.label) : option.value);
  const numeric = spec.type === "integer" || spec.type === "number";
  if (numeric && spec.widget === "slider") {
    const max = spec.max ?? 100;
    const min = spec.min ?? 0;
    const clamp = (n: number) => String(Math.max(min, Math.min(max, Math.round(n) || 0)));
    return (
      <HStack gap="4" width="full">
        <Slider.Root flex="1" min={min} max={max} step={spec.step ?? 1} value={[Number(text) || 0]} onValueChange={(details) => onChange(String(details.value[0]))} colorPalette="brand" data-testid={testId}>
          <Slider.Control>
            <Slider.Track>
              <Slider.Range />
            </Slider.Track>
            <Slider.Thumbs />
          </Slider.Control>
        </Slider.Root>
        <Input name={name} type="number" min={min} max={max} width="20" value={text} onChange={(event) => onChange(clamp(Number(event.target.value)))} />
      </HStack>
    );
  }
  if (numeric) {
    return <Input name={name} type="number" min={spec.min ?? undefined} max={spec.max ?? undefined} step={spec.step ?? (spec.type === "integer" ? 1 : "any")} value={text} onChange={(event) => onChange(event.target.value)} data-testid={testId} />;
  }
  if (spec.widget === "segmented" && spec.options.length > 0) {
    return (
      <SegmentGroup.Root value={text} onValueChange={(details) => details.value && onChange(details.value)} size="sm" data-testid={testId}>
        <SegmentGroup.Indicator />
        <SegmentGroup.Items items={spec.options.map((option) => ({ value: option.value, label: optionLabel(option) }))} />
      </SegmentGroup.Root>
    );
  }
  if (spec.type === "select") {
    return (
      <NativeSelect.Root>
        <NativeSelect.Field name={name} value={text} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
          {!spec.required && <option value="">{t("common.noChoice")}</option>}
          {spec.options.map((option) => (
            <option key={option.value} value={option.value}>
              {optionLabel(option)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    );
  }
  if (spec.type === "text" || spec.widget === "multiline") {
    const mono = spec.type === "secret";
    return <Textarea name={name} rows={4} value={text} placeholder={placeholder} fontSize={mono ? "xs" : "sm"} fontFamily={mono ? "mono" : undefined} spellCheck={!mono} autoComplete="off" onChange={(event) => onChange(event.target.value)} data-testid={testId} />;
  }
  if (spec.type === "secret") {
    return <PasswordInput name={name} value={text} autoComplete="off" placeholder={placeholder || undefined} onChange={(event) => onChange(event.target.value)} data-testid={testId} />;
  }
  if (spec.type === "list") {
    // One item per comma; features with a richer list input pass a renderer for their widget.
    return <Input name={name} value={text} onChange={(event) => onChange(event.target.value.split(",").map((item) => item.trim()).filter(Boolean))} data-testid={testId} />;
  }
  return (
    <Input
      name={name}
      type={spec.type === "url" ? "url" : "text"}
      inputMode={spec.type === "url" ? "url" : undefined}
      fontFamily={spec.widget === "code" ? "mono" : undefined}
      spellCheck={false}
      autoComplete="off"
      value={text}
      placeholder={placeholder ?? (spec.type === "url" ? "https://" : undefined)}
      onChange={(event) => onChange(event.target.value)}
      data-testid={testId}
    />
  );
}

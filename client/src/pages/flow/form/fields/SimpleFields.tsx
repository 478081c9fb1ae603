import { Box, Checkbox, HStack, Icon, Stack, Text, Textarea } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuArrowRight, LuUnplug } from "react-icons/lu";
import { KnowledgeBasePicker } from "../../../../components/KnowledgeBasePicker";
import { ModelOptionSelect } from "../../../../components/ModelOptionSelect";
import { removeAt, replaceAt } from "../variables";
import type { WidgetProps } from "../widgetContext";
import { AddButton, EmptyHint, FieldFrame, ItemProblem, RemoveButton } from "./FieldFrame";

const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map((item) => (typeof item === "string" ? item : String(item ?? ""))) : []);

/** A list of texts, one box each (Message's messages, one of which is said at random; Answer's post answers). */
export function TextListField(props: WidgetProps) {
  const { t } = useTranslation();
  const { path, value, onChange, problemAt } = props;
  const items = stringsOf(value);
  return (
    <FieldFrame {...props} action={<AddButton label={t("flow.form.texts.add")} onClick={() => onChange([...items, ""])} testId={`flow-form-${path}-add`} />}>
      {items.length === 0 && <EmptyHint text={t("flow.form.texts.none")} />}
      {items.map((item, i) => (
        <Stack key={i} gap="1">
          <HStack gap="2" align="flex-start">
            <Textarea size="sm" rows={2} autoresize value={item} aria-invalid={!!problemAt(String(i)) || undefined} onChange={(event) => onChange(replaceAt(items, i, event.target.value))} aria-label={t("flow.form.texts.item", { n: i + 1 })} data-testid={`flow-form-${path}-${i}`} />
            <RemoveButton onClick={() => onChange(removeAt(items, i))} testId={`flow-form-${path}-${i}-remove`} />
          </HStack>
          <ItemProblem text={problemAt(String(i))} />
        </Stack>
      ))}
    </FieldFrame>
  );
}

/** Code, or JSON typed as text (Invoke's headers): monospaced, unwrapped, no spelling marks. */
export function CodeField(props: WidgetProps) {
  const { path, value, onChange } = props;
  return (
    <FieldFrame {...props}>
      <Textarea
        size="sm"
        rows={props.spec.widget === "code" ? 10 : 4}
        fontFamily="mono"
        fontSize="xs"
        whiteSpace="pre"
        overflowX="auto"
        spellCheck={false}
        autoComplete="off"
        value={typeof value === "string" ? value : ""}
       
        onChange={(event) => onChange(event.target.value)}
        data-testid={`flow-form-${path}`}
      />
    </FieldFrame>
  );
}

/**
 * Where a routing port leads (Switch's ELSE, Relevant's yes/no): read-only, since edges are drawn on the canvas.
 * The param's key is the port's handle.
 */
export function RouteField(props: WidgetProps) {
  const { spec, path, context } = props;
  return (
    <FieldFrame {...props}>
      <RouteTarget targetName={context.routes.find((route) => route.handle === spec.key)?.targetName ?? null} testId={`flow-form-${path}`} />
    </FieldFrame>
  );
}

export function RouteTarget({ targetName, testId }: { targetName: string | null; testId: string }) {
  const { t } = useTranslation();
  return targetName ? (
    <HStack gap="1.5" fontSize="sm" data-testid={testId} data-connected="true">
      <Icon as={LuArrowRight} color="fg.muted" />
      <Text fontWeight="medium" truncate>
        {targetName}
      </Text>
    </HStack>
  ) : (
    <HStack gap="1.5" fontSize="sm" color="fg.warning" data-testid={testId} data-connected="false">
      <Icon as={LuUnplug} />
      <Text>{t("flow.form.routes.notConnected")}</Text>
    </HStack>
  );
}

/** The Agent's tools: other components of the flow it may call (not itself, Begin, answers or notes). */
export function ToolsField(props: WidgetProps) {
  const { t } = useTranslation();
  const { path, value, onChange, context, problemAt } = props;
  const chosen = stringsOf(value);
  const byName = new Map(context.components.map((component) => [component.name, component]));
  const candidates = context.nodes.filter((node) => {
    const component = byName.get(node.componentName);
    return node.id !== context.node.id && component && !component.editorOnly && !component.interaction && node.componentName !== "Begin";
  });
  const missing = chosen.filter((id) => !context.nodes.some((node) => node.id === id));
  const toggle = (id: string, on: boolean) => onChange(on ? [...chosen, id] : chosen.filter((other) => other !== id));
  return (
    <FieldFrame {...props}>
      {candidates.length === 0 && missing.length === 0 ? (
        <EmptyHint text={t("flow.form.tools.none")} />
      ) : (
        <Box borderWidth="1px" borderColor="border" rounded="l2" maxHeight="48" overflowY="auto" data-testid={`flow-form-${path}`}>
          {[...candidates.map((node) => ({ id: node.id, label: node.name, kind: t(byName.get(node.componentName)!.label) })), ...missing.map((id) => ({ id, label: id, kind: t("flow.form.tools.missing") }))].map((option) => (
            <Checkbox.Root key={option.id} checked={chosen.includes(option.id)} onCheckedChange={(details) => toggle(option.id, details.checked === true)} colorPalette="brand" display="flex" width="full" px="3" py="1.5" gap="2" size="sm" borderBottomWidth="1px" borderColor="border.muted" _last={{ borderBottomWidth: 0 }} data-testid={`flow-form-${path}-option`}>
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label flex="1" minWidth="0">
                <HStack justify="space-between" gap="2">
                  <Text truncate>{option.label}</Text>
                  <Text fontSize="xs" color="fg.muted" flexShrink={0}>
                    {option.kind}
                  </Text>
                </HStack>
              </Checkbox.Label>
            </Checkbox.Root>
          ))}
        </Box>
      )}
      {chosen.map((_, i) => (
        <ItemProblem key={i} text={problemAt(String(i))} />
      ))}
    </FieldFrame>
  );
}

export function KnowledgeBasesField(props: WidgetProps) {
  const { value, onChange, context, path, problemAt } = props;
  return (
    <FieldFrame {...props}>
      <KnowledgeBasePicker choices={context.choices?.knowledgeBases.items ?? []} value={stringsOf(value)} onChange={onChange} invalid={!!problemAt()} testId={`flow-form-${path}`} />
    </FieldFrame>
  );
}

export function RerankModelField(props: WidgetProps) {
  const { t } = useTranslation();
  const { value, onChange, context, path } = props;
  return (
    <FieldFrame {...props}>
      <ModelOptionSelect name={path} value={typeof value === "string" ? value : ""} models={context.choices?.rerankModels ?? []} emptyLabel={t("flow.form.model.noRerank")} onChange={onChange} testId={`flow-form-${path}`} />
    </FieldFrame>
  );
}

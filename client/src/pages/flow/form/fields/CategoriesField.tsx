import { Field, HStack, Input, Stack, Textarea } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { addCategory, categoriesOf, removeCategory, renameCategory, renameProblem, setCategory, type Categories } from "../categories";
import type { WidgetProps } from "../widgetContext";
import { AddButton, EmptyHint, FieldFrame, ItemProblem, RemoveButton } from "./FieldFrame";
import { RouteTarget } from "./SimpleFields";

/**
 * Categorize's categories, tried in order (the last is the fallback): a name, a description and examples each. Where
 * a category leads is its edge on the canvas, shown here; renaming one renames its port, whose edge follows.
 */
export function CategoriesField(props: WidgetProps) {
  const { t } = useTranslation();
  const { path, value, onChange, problemAt, context } = props;
  const categories = categoriesOf(value);
  const set = (next: Categories) => onChange(next);

  function add() {
    set(addCategory(categories, t("flow.form.categories.defaultName")).categories);
  }
  function remove(name: string) {
    set(removeCategory(categories, name));
    context.onPortsRenamed?.({ [name]: null });
  }
  function rename(from: string, to: string) {
    set(renameCategory(categories, from, to));
    context.onPortsRenamed?.({ [from]: to });
  }

  return (
    <FieldFrame {...props} action={<AddButton label={t("flow.form.categories.add")} onClick={add} testId={`flow-form-${path}-add`} />}>
      {Object.keys(categories).length === 0 && <EmptyHint text={t("flow.form.categories.none")} />}
      {Object.entries(categories).map(([name, category], i) => (
        // By position: a rename keeps the card (and the focus in its name).
        <Stack key={i} gap="2" borderWidth="1px" borderColor="border.muted" rounded="l2" p="2.5" data-testid={`flow-form-${path}-${i}`}>
          <HStack gap="2" align="flex-start">
            <CategoryName name={name} categories={categories} onRename={(to) => rename(name, to)} testId={`flow-form-${path}-${i}-name`} />
            <RemoveButton onClick={() => remove(name)} testId={`flow-form-${path}-${i}-remove`} />
          </HStack>
          <Textarea size="sm" rows={2} autoresize placeholder={t("flow.form.categories.description")} value={category.description ?? ""} onChange={(event) => set(setCategory(categories, name, { description: event.target.value }))} aria-label={t("flow.form.categories.description")} data-testid={`flow-form-${path}-${i}-description`} />
          <Textarea size="sm" rows={2} autoresize placeholder={t("flow.form.categories.examples")} value={category.examples ?? ""} onChange={(event) => set(setCategory(categories, name, { examples: event.target.value }))} aria-label={t("flow.form.categories.examples")} data-testid={`flow-form-${path}-${i}-examples`} />
          <RouteTarget targetName={context.routes.find((route) => route.handle === name)?.targetName ?? null} testId={`flow-form-${path}-${i}-route`} />
          <ItemProblem text={problemAt(name) ?? problemAt(`${name}.to`)} />
        </Stack>
      ))}
    </FieldFrame>
  );
}

/** The name as typed: stored at once when it may be used, else kept here with the reason shown. */
function CategoryName({ name, categories, onRename, testId }: { name: string; categories: Categories; onRename: (to: string) => void; testId: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(name);
  const problem = renameProblem(categories, name, text);
  // A name changed elsewhere (an undo) shows; a name being typed that cannot be used yet stays.
  const shown = text === name || problem ? text : name;
  return (
    <Field.Root invalid={!!problem && shown === text} flex="1">
      <Input
        size="sm"
        fontWeight="medium"
        value={shown}
        onChange={(event) => {
          setText(event.target.value);
          if (!renameProblem(categories, name, event.target.value) && event.target.value !== name) onRename(event.target.value);
        }}
        aria-label={t("flow.form.categories.name")}
        data-testid={testId}
      />
      {problem && shown === text && <Field.ErrorText>{t(problem)}</Field.ErrorText>}
    </Field.Root>
  );
}

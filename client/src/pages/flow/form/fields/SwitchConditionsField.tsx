import { Button, HStack, Input, NativeSelect, SegmentGroup, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuPlus } from "react-icons/lu";
import { addCase, addItem, casesOf, operatorOf, OPERATORS, portsAfterRemoval, removeCase, removeItem, setItem, setLogic, takesValue, type SwitchCase } from "../conditions";
import type { WidgetProps } from "../widgetContext";
import { AddButton, EmptyHint, FieldFrame, ItemProblem, RemoveButton } from "./FieldFrame";
import { ReferenceSelect } from "./ReferenceSelect";
import { RouteTarget } from "./SimpleFields";

/**
 * Switch's cases, tried in order: each holds when all (and) or any (or) of its conditions hold — a value read from
 * upstream, one of §9's operators, and what it is compared with. Case n leaves by the port "Case n" on the canvas.
 */
export function SwitchConditionsField(props: WidgetProps) {
  const { t } = useTranslation();
  const { path, value, onChange, problemAt, context } = props;
  const cases = casesOf(value);
  const set = (next: SwitchCase[]) => onChange(next);

  function remove(index: number) {
    set(removeCase(cases, index));
    context.onPortsRenamed?.(portsAfterRemoval(cases.length, index));
  }

  return (
    <FieldFrame {...props} action={<AddButton label={t("flow.form.switch.addCase")} onClick={() => set(addCase(cases))} testId={`flow-form-${path}-add`} />}>
      {cases.length === 0 && <EmptyHint text={t("flow.form.switch.none")} />}
      {cases.map((condition, i) => {
        const handle = `Case ${i + 1}`;
        return (
          <Stack key={i} gap="2" borderWidth="1px" borderColor="border.muted" rounded="l2" p="2.5" data-testid={`flow-form-${path}-${i}`}>
            <HStack justify="space-between" gap="2">
              <Text fontSize="sm" fontWeight="semibold">
                {t("flow.form.switch.case", { n: i + 1 })}
              </Text>
              <HStack gap="2" minWidth="0">
                <RouteTarget targetName={context.routes.find((route) => route.handle === handle)?.targetName ?? null} testId={`flow-form-${path}-${i}-route`} />
                <RemoveButton onClick={() => remove(i)} testId={`flow-form-${path}-${i}-remove`} label={t("flow.form.switch.removeCase")} />
              </HStack>
            </HStack>
            {condition.items.length > 1 && (
              <SegmentGroup.Root size="xs" value={condition.logical_operator} onValueChange={(details) => details.value && set(setLogic(cases, i, details.value as SwitchCase["logical_operator"]))} data-testid={`flow-form-${path}-${i}-logic`} alignSelf="flex-start">
                <SegmentGroup.Indicator />
                <SegmentGroup.Items
                  items={[
                    { value: "and", label: t("flow.form.switch.all") },
                    { value: "or", label: t("flow.form.switch.any") },
                  ]}
                />
              </SegmentGroup.Root>
            )}
            {condition.items.map((item, j) => {
              const at = `${i}.items.${j}`;
              const known = operatorOf(item.operator);
              const problem = problemAt(`${at}.cpn_id`) ?? problemAt(`${at}.operator`);
              return (
                <Stack key={j} gap="1.5" borderLeftWidth="2px" borderColor={problem ? "border.error" : "border"} pl="2.5">
                  {j > 0 && (
                    <Text fontSize="xs" color="fg.muted" textTransform="uppercase">
                      {t(`flow.components.Switch.logical.${condition.logical_operator}`)}
                    </Text>
                  )}
                  <HStack gap="2">
                    <ReferenceSelect value={item.cpn_id} groups={context.groups} onChange={(cpn_id) => set(setItem(cases, i, j, { cpn_id }))} invalid={!!problemAt(`${at}.cpn_id`)} label={t("flow.form.switch.reads")} testId={`flow-form-${path}-${at}-cpn_id`} />
                    <RemoveButton onClick={() => set(removeItem(cases, i, j))} testId={`flow-form-${path}-${at}-remove`} />
                  </HStack>
                  <HStack gap="2">
                    <NativeSelect.Root size="sm" width={takesValue(item.operator) ? "44" : "full"} flexShrink={0}>
                      <NativeSelect.Field value={known ?? item.operator} onChange={(event) => set(setItem(cases, i, j, { operator: event.target.value }))} aria-label={t("flow.form.switch.operator")} data-testid={`flow-form-${path}-${at}-operator`}>
                        {!known && <option value={item.operator}>{item.operator}</option>}
                        {OPERATORS.map((operator) => (
                          <option key={operator} value={operator}>
                            {t(`flow.components.Switch.operators.${operator}`)}
                          </option>
                        ))}
                      </NativeSelect.Field>
                      <NativeSelect.Indicator />
                    </NativeSelect.Root>
                    {takesValue(item.operator) && (
                      <Input size="sm" flex="1" placeholder={t("flow.form.switch.value")} value={item.value} onChange={(event) => set(setItem(cases, i, j, { value: event.target.value }))} aria-label={t("flow.form.switch.value")} data-testid={`flow-form-${path}-${at}-value`} />
                    )}
                  </HStack>
                  <ItemProblem text={problem} />
                </Stack>
              );
            })}
            <Button size="xs" variant="ghost" colorPalette="brand" alignSelf="flex-start" onClick={() => set(addItem(cases, i))} data-testid={`flow-form-${path}-${i}-add-item`}>
              <LuPlus /> {t("flow.form.switch.addCondition")}
            </Button>
            <ItemProblem text={problemAt(String(i)) ?? problemAt(`${i}.logical_operator`)} />
          </Stack>
        );
      })}
    </FieldFrame>
  );
}

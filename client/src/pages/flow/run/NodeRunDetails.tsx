import { Box, Code, HStack, Icon, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCircleAlert } from "react-icons/lu";
import type { NodeRunState } from "../flowTypes";
import { JsonBlock } from "./JsonBlock";
import { NodeStatusBadge, useElapsedText } from "./runLook";

interface ResolvedInput {
  component_id: string;
  content: string;
}

function resolvedInputs(inputs: unknown): ResolvedInput[] | null {
  if (!Array.isArray(inputs)) return null;
  const readable = inputs.every((input) => typeof input === "object" && input !== null && typeof (input as ResolvedInput).component_id === "string");
  return readable ? inputs.map((input: ResolvedInput) => ({ component_id: input.component_id, content: typeof input.content === "string" ? input.content : JSON.stringify(input.content) })) : null;
}

/** A node's last run: its state and time, what it read ([{component_id, content}]), what it gave, and its error. */
export function NodeRunDetails({ state }: { state: NodeRunState }) {
  const { t } = useTranslation();
  const elapsed = useElapsedText();
  const ran = state.status === "done" || state.status === "failed";
  const inputs = resolvedInputs(state.inputs);
  return (
    <Stack gap="3" fontSize="sm" minWidth="0" data-testid="node-run-details" data-status={state.status}>
      <HStack gap="2">
        <NodeStatusBadge status={state.status} />
        {state.elapsedMs != null && (
          <Text fontSize="xs" color="fg.muted" data-testid="node-run-elapsed">
            {elapsed(state.elapsedMs)}
          </Text>
        )}
      </HStack>
      {state.error && (
        <HStack gap="2" align="flex-start" color="fg.error" role="alert" data-testid="node-run-error">
          <Icon as={LuCircleAlert} mt="0.5" flexShrink={0} />
          <Text wordBreak="break-word">{state.error}</Text>
        </HStack>
      )}
      {!ran && state.status !== "running" && (
        <Text color="fg.muted" fontSize="xs">
          {t(state.status === "skipped" ? "flow.run.details.skipped" : "flow.run.details.notYet")}
        </Text>
      )}
      {ran && (
        <Stack gap="1.5">
          <Text fontSize="xs" fontWeight="semibold" color="fg.muted">
            {t("flow.run.details.inputs")}
          </Text>
          {inputs === null ? (
            <JsonBlock title={t("flow.run.details.inputs")} value={state.inputs} testId="node-run-inputs" />
          ) : inputs.length === 0 ? (
            <Text fontSize="xs" color="fg.subtle">
              {t("flow.run.details.noInputs")}
            </Text>
          ) : (
            <Stack gap="1.5" data-testid="node-run-inputs">
              {inputs.map((input, i) => (
                <Box key={`${input.component_id}-${i}`} borderWidth="1px" borderColor="border.muted" rounded="l2" p="2">
                  <Code size="sm" variant="surface" mb="1" maxWidth="full" truncate>
                    {input.component_id}
                  </Code>
                  <Text fontSize="xs" whiteSpace="pre-wrap" wordBreak="break-word" maxHeight="32" overflowY="auto">
                    {input.content}
                  </Text>
                </Box>
              ))}
            </Stack>
          )}
        </Stack>
      )}
      {ran && state.output != null && <JsonBlock title={t("flow.run.details.output")} value={state.output} testId="node-run-output" />}
    </Stack>
  );
}

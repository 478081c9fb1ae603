import { Box, Collapsible, HStack, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuChevronDown, LuChevronRight } from "react-icons/lu";
import type { NodeRunState } from "../flowTypes";
import { NodeRunDetails } from "./NodeRunDetails";
import { NodeStatusBadge, useElapsedText } from "./runLook";
import type { NamedRunStep } from "./useFlowRun";

/** This turn's steps, compact (name, state, time); a step opens to what its component read and gave. */
export function RunSteps({ steps, nodeStates }: { steps: NamedRunStep[]; nodeStates: Record<string, NodeRunState> }) {
  const { t } = useTranslation();
  const elapsed = useElapsedText();
  const [open, setOpen] = useState<string | null>(null);
  if (steps.length === 0) return null;
  return (
    <Stack gap="1" borderTopWidth="1px" borderColor="border.muted" pt="3" data-testid="run-steps">
      <Text fontSize="xs" fontWeight="semibold" color="fg.muted">
        {t("flow.run.steps")}
      </Text>
      {steps.map((step) => {
        const isOpen = open === step.key;
        const state = nodeStates[step.componentId];
        return (
          <Collapsible.Root key={step.key} open={isOpen} onOpenChange={(details) => setOpen(details.open ? step.key : null)}>
            <Collapsible.Trigger asChild>
              <HStack as="button" width="full" gap="2" px="1.5" py="1" rounded="l1" fontSize="sm" _hover={{ bg: "bg.muted" }} cursor="pointer" data-testid="run-step" data-component-id={step.componentId} data-status={step.status}>
                <Box color="fg.subtle">{isOpen ? <LuChevronDown /> : <LuChevronRight />}</Box>
                <Text flex="1" minWidth="0" textAlign="start" truncate title={step.componentId}>
                  {step.name}
                </Text>
                <NodeStatusBadge status={step.status} />
                <Text fontSize="xs" color="fg.muted" minWidth="12" textAlign="end">
                  {elapsed(step.elapsedMs)}
                </Text>
              </HStack>
            </Collapsible.Trigger>
            <Collapsible.Content>
              <Box ps="6" pe="1" py="2">
                <NodeRunDetails state={state ?? { status: step.status, elapsedMs: step.elapsedMs, error: step.error }} />
              </Box>
            </Collapsible.Content>
          </Collapsible.Root>
        );
      })}
    </Stack>
  );
}

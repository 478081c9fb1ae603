import { Badge, Box, Flex, HStack, Icon, Spinner, Stack, Text } from "@chakra-ui/react";
import { Handle, Position, useUpdateNodeInternals, type NodeProps } from "@xyflow/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { LuCircleAlert, LuCircleCheck, LuCircleDashed, LuCircleMinus, LuCircleX } from "react-icons/lu";
import { CATEGORY_COLORS, componentIcon } from "../componentIcon";
import type { NodeRunStatus } from "../flowTypes";
import { nodeSummary } from "../form/nodeSummary";
import { useEditorContext } from "./editorContext";
import type { FlowNode } from "./flowGraph";
import { useRoutePorts } from "./useRoutePorts";

const STATUS_ICONS: Record<NodeRunStatus, typeof LuCircleCheck> = {
  waiting: LuCircleDashed,
  running: LuCircleDashed,
  done: LuCircleCheck,
  failed: LuCircleX,
  skipped: LuCircleMinus,
};

const STATUS_COLORS: Record<NodeRunStatus, string> = {
  waiting: "fg.subtle",
  running: "blue.solid",
  done: "green.solid",
  failed: "red.solid",
  skipped: "fg.subtle",
};

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A component on the canvas: its icon, name and a summary of its settings; after a run, its state and time.
 * A routing component has one outgoing handle per port (a category, a case, yes/no), kept in step with its form.
 */
export function ComponentNode({ id, data, selected }: NodeProps<FlowNode>) {
  const { t } = useTranslation();
  const { registry, problemsOf, runStateOf } = useEditorContext();
  const component = registry.get(data.componentName);
  const ports = useRoutePorts(data.componentName, data.params, component?.routing ?? false);
  const updateNodeInternals = useUpdateNodeInternals();
  const portKey = ports.map((port) => port.handle).join("\n");
  useEffect(() => updateNodeInternals(id), [id, portKey, updateNodeInternals]);

  const problems = problemsOf(id);
  const run = runStateOf(id);
  const color = CATEGORY_COLORS[component?.category ?? "core"] ?? "gray";
  const isBegin = data.componentName === "Begin";
  const summary = component ? nodeSummary({ id, name: data.name, componentName: data.componentName, params: data.params }, component, t) : "";
  const StatusIcon = run ? STATUS_ICONS[run.status] : null;

  return (
    <Box
      width="230px"
      bg="bg.panel"
      borderWidth="2px"
      borderColor={problems.length > 0 ? "border.error" : selected ? `${color}.solid` : run?.status === "running" ? "blue.solid" : "border"}
      rounded="lg"
      shadow={selected ? "md" : "sm"}
      className={run?.status === "running" ? "flow-node-running" : undefined}
      data-testid="flow-node"
      data-node={id}
      data-component={data.componentName}
      data-name={data.name}
      data-invalid={problems.length > 0 ? "" : undefined}
      data-run-status={run?.status}
    >
      {!isBegin && <Handle type="target" position={Position.Left} />}
      <HStack px="3" pt="2.5" pb={summary ? "1" : "2.5"} gap="2">
        <Flex flexShrink={0} align="center" justify="center" boxSize="7" rounded="md" bg={`${color}.subtle`} color={`${color}.fg`}>
          <Icon as={componentIcon(component?.icon ?? "")} boxSize="4" />
        </Flex>
        <Stack gap="0" minWidth="0" flex="1">
          <Text fontWeight="semibold" fontSize="sm" truncate title={data.name} data-testid="flow-node-name">
            {data.name}
          </Text>
          {component && data.name !== t(component.label) && (
            <Text fontSize="2xs" color="fg.muted" truncate>
              {t(component.label)}
            </Text>
          )}
        </Stack>
        {run && StatusIcon && (
          <HStack gap="1" flexShrink={0} color={STATUS_COLORS[run.status]} title={t(`flow.editor.runStatus.${run.status}`)} data-testid="flow-node-status">
            {run.status === "running" ? <Spinner size="xs" /> : <Icon as={StatusIcon} boxSize="4" />}
            {run.elapsedMs != null && run.status !== "running" && (
              <Text fontSize="2xs" color="fg.muted">
                {seconds(run.elapsedMs)}
              </Text>
            )}
          </HStack>
        )}
      </HStack>
      {summary && (
        <Text px="3" pb="2" fontSize="xs" color="fg.muted" lineClamp={2} data-testid="flow-node-summary">
          {summary}
        </Text>
      )}
      {problems.length > 0 && (
        <HStack px="3" pb="2" gap="1" color="fg.error" fontSize="xs" title={problems.map((problem) => problem.message).join("\n")} data-testid="flow-node-problems">
          <LuCircleAlert />
          <Text truncate>{problems.length === 1 ? problems[0].message : t("flow.editor.problemCount", { count: problems.length })}</Text>
        </HStack>
      )}
      {component?.routing ? (
        <Stack gap="0" borderTopWidth="1px" py="1">
          {ports.map((port) => (
            <Box key={port.handle} position="relative" px="3" py="1" textAlign="end" data-testid="flow-node-port" data-handle={port.handle}>
              <Badge size="sm" variant="subtle" colorPalette={color} maxWidth="full" truncate>
                {port.literal ? port.label : t(port.label)}
              </Badge>
              <Handle type="source" position={Position.Right} id={port.handle} />
            </Box>
          ))}
          {ports.length === 0 && (
            <Text px="3" py="1" fontSize="xs" color="fg.subtle">
              {t("flow.editor.noPorts")}
            </Text>
          )}
        </Stack>
      ) : (
        <Handle type="source" position={Position.Right} />
      )}
    </Box>
  );
}

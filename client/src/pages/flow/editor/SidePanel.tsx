import { Box, Button, CloseButton, Flex, HStack, Icon, Stack, Text } from "@chakra-ui/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { LuArrowLeft, LuFlaskConical, LuTrash2 } from "react-icons/lu";
import { CATEGORY_COLORS, componentIcon } from "../componentIcon";
import type { EditorNode, FlowComponentInfo, FlowProblem, RouteView } from "../flowTypes";
import { NodeForm } from "../form/NodeForm";
import { NodeRunDetails } from "../run/NodeRunDetails";
import { RunPanel } from "../run/RunPanel";
import type { FlowRunController } from "../run/useFlowRun";
import { editorNodeOf, upstreamOf, type Registry } from "./flowGraph";
import type { Drawing } from "./useFlowEditor";
import { useRoutePorts } from "./useRoutePorts";

/** What the side panel shows: one node's form, or the run. */
export type PanelState = { kind: "node"; id: string } | { kind: "run" } | null;

interface SidePanelProps {
  panel: PanelState;
  onPanel: (panel: PanelState) => void;
  flowId: string;
  drawing: Drawing;
  components: readonly FlowComponentInfo[];
  registry: Registry;
  problemsOf: (componentId: string) => FlowProblem[];
  run: FlowRunController;
  begin: EditorNode | null;
  beforeRun: () => Promise<boolean>;
  blockedReason: string | null;
  onRename: (componentId: string, name: string) => void;
  onParams: (componentId: string, params: Record<string, unknown>) => void;
  onPortsRenamed: (componentId: string, renames: Record<string, string | null>) => void;
  onDelete: (componentId: string) => void;
  onDebug: (componentId: string) => void;
}

/** The right-hand panel: the selected node's form (with its last run), or the run panel. */
export function SidePanel(props: SidePanelProps) {
  const { panel } = props;
  if (!panel) return null;
  return (
    <Box width={{ base: "360px", xl: "420px" }} flexShrink={0} borderStartWidth="1px" bg="bg.panel" minHeight="0" display="flex" flexDirection="column">
      {panel.kind === "run" ? (
        <RunPanel flowId={props.flowId} controller={props.run} begin={props.begin} beforeRun={props.beforeRun} blockedReason={props.blockedReason} onClose={() => props.onPanel(null)} />
      ) : (
        <NodePanel {...props} nodeId={panel.id} />
      )}
    </Box>
  );
}

function NodePanel({ nodeId, onPanel, flowId, drawing, components, registry, problemsOf, run, onRename, onParams, onPortsRenamed, onDelete, onDebug }: SidePanelProps & { nodeId: string }) {
  const { t } = useTranslation();
  const found = drawing.nodes.find((node) => node.id === nodeId);
  const component = found ? registry.get(found.data.componentName) : undefined;
  const ports = useRoutePorts(found?.data.componentName ?? "", found?.data.params ?? {}, component?.routing ?? false);
  const nodes = useMemo(() => drawing.nodes.filter((node) => node.type === "component").map(editorNodeOf), [drawing.nodes]);
  const upstream = useMemo(() => upstreamOf(nodeId, drawing.edges), [drawing.edges, nodeId]);
  if (!found || !component) return null;
  const node = editorNodeOf(found);
  const routes: RouteView[] = ports.map((port) => {
    const edge = drawing.edges.find((candidate) => candidate.source === nodeId && candidate.sourceHandle === port.handle);
    const target = edge ? drawing.nodes.find((other) => other.id === edge.target) : undefined;
    return { handle: port.handle, label: port.literal ? port.label : t(port.label), targetName: target?.data.name ?? null };
  });
  const color = CATEGORY_COLORS[component.category] ?? "gray";
  const runState = run.nodeStates[nodeId];

  return (
    <Flex direction="column" height="full" minHeight="0" data-testid="flow-node-panel" data-node={node.id} data-component={node.componentName}>
      <HStack px="4" py="3" borderBottomWidth="1px" gap="2">
        {run.status !== "idle" && (
          <CloseButton size="sm" onClick={() => onPanel({ kind: "run" })} aria-label={t("flow.editor.backToRun")} title={t("flow.editor.backToRun")}>
            <LuArrowLeft />
          </CloseButton>
        )}
        <Flex flexShrink={0} align="center" justify="center" boxSize="8" rounded="md" bg={`${color}.subtle`} color={`${color}.fg`}>
          <Icon as={componentIcon(component.icon)} boxSize="4" />
        </Flex>
        <Stack gap="0" flex="1" minWidth="0">
          <Text fontWeight="semibold" truncate>
            {node.name}
          </Text>
          <Text fontSize="xs" color="fg.muted" truncate>
            {t(component.label)}
          </Text>
        </Stack>
        <CloseButton size="sm" onClick={() => onPanel(null)} data-testid="flow-node-panel-close" />
      </HStack>
      <Box flex="1" minHeight="0" overflowY="auto" px="4" py="4">
        <Stack gap="5">
          {runState && (
            <Stack gap="2" data-testid="flow-node-last-run">
              <Text fontSize="sm" fontWeight="semibold">
                {t("flow.editor.lastRun")}
              </Text>
              <NodeRunDetails state={runState} />
            </Stack>
          )}
          <NodeForm
            key={node.id}
            flowId={flowId}
            node={node}
            component={component}
            components={[...components]}
            nodes={nodes}
            upstream={upstream}
            routes={routes}
            problems={problemsOf(node.id)}
            onRename={(name) => onRename(node.id, name)}
            onChange={(params) => onParams(node.id, params)}
            onPortsRenamed={(renames) => onPortsRenamed(node.id, renames)}
          />
        </Stack>
      </Box>
      <HStack px="4" py="3" borderTopWidth="1px" justify="space-between">
        {node.componentName !== "Begin" ? (
          <Button size="sm" variant="ghost" colorPalette="red" onClick={() => onDelete(node.id)} data-testid="flow-node-delete">
            <LuTrash2 /> {t("common.delete")}
          </Button>
        ) : (
          <span />
        )}
        {!component.interaction && node.componentName !== "Begin" && (
          <Button size="sm" variant="outline" onClick={() => onDebug(node.id)} data-testid="flow-node-debug">
            <LuFlaskConical /> {t("flow.editor.runThisNode")}
          </Button>
        )}
      </HStack>
    </Flex>
  );
}

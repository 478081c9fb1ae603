import { Alert, Box, Button, Flex, HStack, IconButton } from "@chakra-ui/react";
import { useApolloClient } from "@apollo/client/react";
import { Background, Controls, MiniMap, ReactFlow, useNodesInitialized, useReactFlow, type Connection, type IsValidConnection, type OnConnectEnd } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuPanelLeftOpen } from "react-icons/lu";
import { notify } from "../../../components/toaster";
import { withDefaults } from "../../../components/paramForm.logic";
import { FlowEditorDocument, type FlowEditorQuery } from "../../../graphql/gql/graphql";
import { useColorMode } from "../../../theme";
import type { FlowComponentInfo } from "../flowTypes";
import { PublishDialog } from "../publish/PublishDialog";
import { DebugNodeDialog } from "../run/DebugNodeDialog";
import { RunsDrawer } from "../run/RunsDrawer";
import { useFlowRun } from "../run/useFlowRun";
import { ButtonEdge } from "./ButtonEdge";
import { ComponentNode } from "./ComponentNode";
import { EditorContext, type EditorContextValue } from "./editorContext";
import { EditorHeader } from "./EditorHeader";
import {
  EDGE_TYPE, connectionProblem, copied, dslOf, edgeId, editorGraphOf, editorNodeOf, freeSpot, laidOut, newComponentId, pasted, registryOf, uniqueName,
  type Clipboard, type FlowDslView, type FlowNode,
} from "./flowGraph";
import { NoteNode } from "./NoteNode";
import { Palette, PALETTE_MIME } from "./Palette";
import { SidePanel, type PanelState } from "./SidePanel";
import { useAutosave } from "./useAutosave";
import { useEditorShortcuts } from "./useEditorShortcuts";
import { useFlowEditor, type Drawing } from "./useFlowEditor";
import { useValidation } from "./useValidation";
import { VersionsDrawer } from "./VersionsDrawer";

type EditedFlow = FlowEditorQuery["flow"];

const NODE_TYPES = { component: ComponentNode, note: NoteNode };
const EDGE_TYPES = { [EDGE_TYPE]: ButtonEdge };

interface FlowEditorProps {
  flow: EditedFlow;
  components: readonly FlowComponentInfo[];
}

/**
 * The flow editor (§2 /flow/{id}): the palette, the canvas, a side panel with the selected node's form or the run,
 * and a header with the title, the save state and the actions. Edits are saved after a short pause (§4); the run
 * uses the saved flow, so a run saves first.
 */
export function FlowEditor({ flow, components }: FlowEditorProps) {
  const { t } = useTranslation();
  const client = useApolloClient();
  const colorMode = useColorMode();
  const flowInstance = useReactFlow();
  const registry = useMemo(() => registryOf(components), [components]);
  const base = useRef(flow.dsl as unknown as FlowDslView);
  const editor = useFlowEditor(useMemo(() => editorGraphOf(base.current, registry), [registry]));
  const { drawing } = editor;
  const latestDrawing = useRef(drawing);
  latestDrawing.current = drawing;
  const [title, setTitle] = useState(flow.title);
  const [titleRevision, setTitleRevision] = useState(0);
  const latestTitle = useRef(title);
  latestTitle.current = title;
  const clipboard = useRef<Clipboard | null>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const [panel, setPanel] = useState<PanelState>(null);
  const [dialog, setDialog] = useState<"versions" | "runs" | "publish" | null>(null);
  const [debugNodeId, setDebugNodeId] = useState<string | null>(null);
  const [paletteOpen, setPaletteOpen] = useState(true);

  const dslNow = useCallback(() => dslOf(latestDrawing.current.nodes, latestDrawing.current.edges, base.current), []);
  const autosave = useAutosave({
    flowId: flow.id,
    revision: editor.revision + titleRevision,
    input: () => ({ dsl: dslNow() as unknown as Record<string, unknown>, title: latestTitle.current }),
    loadedAt: flow.updatedAt,
    onSaved: (saved) => {
      base.current = saved.dsl as unknown as FlowDslView;
    },
  });
  const validation = useValidation(dslNow, editor.revision);
  const runNodes = useMemo(() => drawing.nodes.filter((node) => node.type === "component").map((node) => ({ id: node.id, name: node.data.name })), [drawing.nodes]);
  const run = useFlowRun(flow.id, runNodes);

  /** Another stored flow takes this editor's place (a version restored, the other tab's save taken). */
  const takeStored = useCallback(
    (stored: { dsl: Record<string, unknown>; title: string; updatedAt: string }) => {
      base.current = stored.dsl as unknown as FlowDslView;
      editor.replace(editorGraphOf(base.current, registry));
      setTitle(stored.title);
      autosave.reset(stored.updatedAt);
    },
    [autosave, editor, registry],
  );

  const addComponent = useCallback(
    (componentName: string, position?: { x: number; y: number }) => {
      const component = registry.get(componentName);
      if (!component) return;
      const { nodes } = latestDrawing.current;
      const id = newComponentId(componentName, new Set(nodes.map((node) => node.id)));
      const name = uniqueName(t(component.label), nodes.map((node) => node.data.name));
      const params = withDefaults(component.params, {});
      const canvas = canvasRef.current?.getBoundingClientRect();
      const center = canvas ? { x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height / 3 } : { x: window.innerWidth / 2, y: window.innerHeight / 2 };
      const spot = position ?? freeSpot(flowInstance.screenToFlowPosition(center), nodes);
      const node: FlowNode = { id, type: component.editorOnly ? "note" : "component", position: spot, data: { name, componentName, params }, selected: true, deletable: componentName !== "Begin" };
      editor.change((previous) => ({ ...previous, nodes: [...previous.nodes.map((other) => ({ ...other, selected: false })), node] }));
      if (!component.editorOnly) setPanel({ kind: "node", id });
    },
    [editor, flowInstance, registry, t],
  );

  const setParams = useCallback(
    (componentId: string, params: Record<string, unknown>, coalesceKey?: string) =>
      editor.change((previous) => ({ ...previous, nodes: previous.nodes.map((node) => (node.id === componentId ? { ...node, data: { ...node.data, params } } : node)) }), coalesceKey),
    [editor],
  );

  const rename = useCallback(
    (componentId: string, name: string) =>
      editor.change((previous) => ({ ...previous, nodes: previous.nodes.map((node) => (node.id === componentId ? { ...node, data: { ...node.data, name } } : node)) }), `name:${componentId}`),
    [editor],
  );

  /** The form renamed or removed routing ports (a category, a case): their edges follow, in the same undo step as the params. */
  const renamePorts = useCallback(
    (componentId: string, renames: Record<string, string | null>) =>
      editor.change(
        (previous) => ({
          ...previous,
          edges: previous.edges.flatMap((edge) => {
            if (edge.source !== componentId || !edge.sourceHandle || !(edge.sourceHandle in renames)) return [edge];
            const handle = renames[edge.sourceHandle];
            return handle === null ? [] : [{ ...edge, id: edgeId(edge.source, handle, edge.target), sourceHandle: handle }];
          }),
        }),
        `params:${componentId}`,
      ),
    [editor],
  );

  const deleteEdge = useCallback((id: string) => editor.change((previous) => ({ ...previous, edges: previous.edges.filter((edge) => edge.id !== id) })), [editor]);

  const deleteNode = useCallback(
    (id: string) => {
      editor.change((previous) => ({ nodes: previous.nodes.filter((node) => node.id !== id), edges: previous.edges.filter((edge) => edge.source !== id && edge.target !== id) }));
      setPanel(null);
    },
    [editor],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      const { nodes, edges } = latestDrawing.current;
      const problem = connectionProblem(connection, nodes, edges, registry);
      if (problem) {
        notify.error(t(problem));
        return;
      }
      const edge = { id: edgeId(connection.source, connection.sourceHandle, connection.target), source: connection.source, target: connection.target, sourceHandle: connection.sourceHandle ?? null, targetHandle: null, type: EDGE_TYPE };
      editor.change((previous) => ({ ...previous, edges: [...previous.edges, edge] }));
    },
    [editor, registry, t],
  );

  const isValidConnection: IsValidConnection = useCallback(
    (connection) => connectionProblem(connection, latestDrawing.current.nodes, latestDrawing.current.edges, registry) === null,
    [registry],
  );

  // A connection dropped on a handle it may not reach: say why (while dragging, the handle shows it is refused).
  const onConnectEnd: OnConnectEnd = useCallback(
    (_event, state) => {
      if (state.isValid !== false || !state.fromNode || !state.toNode) return;
      const connection = { source: state.fromNode.id, target: state.toNode.id, sourceHandle: state.fromHandle?.id ?? null };
      const problem = connectionProblem(connection, latestDrawing.current.nodes, latestDrawing.current.edges, registry);
      if (problem) notify.error(t(problem));
    },
    [registry, t],
  );

  const onDrop = useCallback(
    (event: DragEvent) => {
      const name = event.dataTransfer.getData(PALETTE_MIME);
      if (!name) return;
      event.preventDefault();
      addComponent(name, flowInstance.screenToFlowPosition({ x: event.clientX, y: event.clientY }));
    },
    [addComponent, flowInstance],
  );

  const select = useCallback((selected: (node: FlowNode) => boolean) => {
    editor.onNodesChange(latestDrawing.current.nodes.map((node) => ({ type: "select" as const, id: node.id, selected: selected(node) })));
  }, [editor]);

  useEditorShortcuts({
    undo: editor.undo,
    redo: editor.redo,
    copy: () => {
      const clip = copied(latestDrawing.current.nodes, latestDrawing.current.edges);
      if (clip.nodes.length > 0) clipboard.current = clip;
    },
    paste: () => {
      if (!clipboard.current) return;
      const copy = pasted(clipboard.current, latestDrawing.current.nodes);
      clipboard.current = { nodes: copy.nodes, edges: copy.edges };
      editor.change((previous: Drawing) => ({ nodes: [...previous.nodes.map((node) => ({ ...node, selected: false })), ...copy.nodes], edges: [...previous.edges, ...copy.edges] }));
    },
    selectAll: () => select(() => true),
    save: () => void autosave.flush(),
  });

  const layout = useCallback(() => {
    editor.change((previous) => ({ ...previous, nodes: laidOut(previous.nodes, previous.edges) }));
    requestAnimationFrame(() => void flowInstance.fitView({ padding: 0.2, duration: 300 }));
  }, [editor, flowInstance]);

  const context: EditorContextValue = useMemo(
    () => ({
      registry,
      problemsOf: (id) => validation.byNode.get(id) ?? [],
      runStateOf: (id) => run.nodeStates[id],
      setParams,
      deleteEdge,
    }),
    [deleteEdge, registry, run.nodeStates, setParams, validation.byNode],
  );

  // A run this tab follows again after a reload (still going, or waiting for the user's reply) opens its panel once.
  const runShown = useRef(false);
  useEffect(() => {
    if (runShown.current || !["queued", "running", "waiting"].includes(run.status)) return;
    runShown.current = true;
    setPanel((current) => current ?? { kind: "run" });
  }, [run.status]);

  // The whole flow in view once its nodes have their sizes (React Flow's own fitView may run before they all do).
  const nodesInitialized = useNodesInitialized();
  const fitted = useRef(false);
  useEffect(() => {
    if (!nodesInitialized || fitted.current) return;
    fitted.current = true;
    void flowInstance.fitView({ padding: 0.15, maxZoom: 1.1 });
  }, [flowInstance, nodesInitialized]);

  const blockedReason = validation.problems.length > 0 ? t("flow.editor.fixFirst", { count: validation.problems.length }) : null;
  const begin = drawing.nodes.find((node) => node.data.componentName === "Begin");
  const debugNode = debugNodeId ? drawing.nodes.find((node) => node.id === debugNodeId) : undefined;

  async function takeTheirs() {
    const { data } = await client.query({ query: FlowEditorDocument, variables: { id: flow.id }, fetchPolicy: "network-only" });
    if (data) takeStored(data.flow);
  }

  async function keepMine() {
    const { data } = await client.query({ query: FlowEditorDocument, variables: { id: flow.id }, fetchPolicy: "network-only" });
    if (data) await autosave.overwrite(data.flow.updatedAt);
  }

  return (
    <EditorContext.Provider value={context}>
      <Flex direction="column" height="full" minHeight="0" data-testid="flow-editor">
        <EditorHeader
          title={title}
          onTitle={(next) => {
            setTitle(next);
            setTitleRevision((n) => n + 1);
          }}
          saveState={autosave.state}
          savedAt={autosave.savedAt}
          saveError={autosave.error}
          onRetrySave={() => void autosave.flush()}
          canUndo={editor.canUndo}
          canRedo={editor.canRedo}
          onUndo={editor.undo}
          onRedo={editor.redo}
          onLayout={layout}
          onVersions={() => setDialog("versions")}
          onRuns={() => setDialog("runs")}
          onPublish={() => setDialog("publish")}
          onRun={() => setPanel({ kind: "run" })}
          problemCount={validation.problems.length}
        />
        {autosave.state === "conflict" && (
          <Alert.Root status="warning" borderRadius="0" py="2" data-testid="flow-conflict">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t("flow.editor.conflictTitle")}</Alert.Title>
              <Alert.Description>{t("flow.editor.conflictText")}</Alert.Description>
            </Alert.Content>
            <HStack gap="2">
              <Button size="xs" variant="outline" onClick={() => void takeTheirs()} data-testid="flow-conflict-theirs">
                {t("flow.editor.conflictTakeTheirs")}
              </Button>
              <Button size="xs" colorPalette="orange" onClick={() => void keepMine()} data-testid="flow-conflict-mine">
                {t("flow.editor.conflictKeepMine")}
              </Button>
            </HStack>
          </Alert.Root>
        )}
        {validation.flowProblems.length > 0 && (
          <Alert.Root status="error" borderRadius="0" py="2" data-testid="flow-problems">
            <Alert.Indicator />
            <Alert.Description>{validation.flowProblems.map((problem) => problem.message).join(" ")}</Alert.Description>
          </Alert.Root>
        )}
        <Flex flex="1" minHeight="0">
          <Box width={paletteOpen ? { base: "220px", xl: "260px" } : "44px"} flexShrink={0} borderEndWidth="1px" bg="bg.panel">
            {paletteOpen ? (
              <Palette components={components} hasBegin={begin !== undefined} onAdd={(name) => addComponent(name)} onCollapse={() => setPaletteOpen(false)} />
            ) : (
              <IconButton variant="ghost" size="sm" m="1.5" aria-label={t("flow.editor.showComponents")} title={t("flow.editor.showComponents")} onClick={() => setPaletteOpen(true)} data-testid="flow-palette-open">
                <LuPanelLeftOpen />
              </IconButton>
            )}
          </Box>
          <Box ref={canvasRef} flex="1" minWidth="0" position="relative" onDragOver={(event) => event.preventDefault()} onDrop={onDrop} data-testid="flow-canvas">
            <ReactFlow<FlowNode>
              nodes={drawing.nodes}
              edges={drawing.edges}
              nodeTypes={NODE_TYPES}
              edgeTypes={EDGE_TYPES}
              onNodesChange={editor.onNodesChange}
              onEdgesChange={editor.onEdgesChange}
              onNodeDragStart={editor.onDragStart}
              onSelectionDragStart={editor.onDragStart}
              onConnect={onConnect}
              onConnectEnd={onConnectEnd}
              isValidConnection={isValidConnection}
              onNodeClick={(_event, node) => node.type === "component" && setPanel({ kind: "node", id: node.id })}
              onPaneClick={() => setPanel((current) => (current?.kind === "node" ? null : current))}
              deleteKeyCode={["Delete", "Backspace"]}
              multiSelectionKeyCode={["Shift", "Meta", "Control"]}
              colorMode={colorMode}
              defaultEdgeOptions={{ type: EDGE_TYPE }}
              minZoom={0.2}
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={16} />
              <Controls showInteractive={false} />
              {/* beside a side panel the canvas is narrow: the map would cover the nodes it maps */}
              {!panel && <MiniMap pannable zoomable nodeStrokeWidth={3} style={{ width: 150, height: 100 }} />}
            </ReactFlow>
          </Box>
          <SidePanel
            panel={panel}
            onPanel={setPanel}
            flowId={flow.id}
            drawing={drawing}
            components={components}
            registry={registry}
            problemsOf={context.problemsOf}
            run={run}
            begin={begin ? editorNodeOf(begin) : null}
            beforeRun={autosave.flush}
            blockedReason={blockedReason}
            onRename={rename}
            onParams={(id, params) => setParams(id, params, `params:${id}`)}
            onPortsRenamed={renamePorts}
            onDelete={deleteNode}
            onDebug={setDebugNodeId}
          />
        </Flex>
      </Flex>
      <VersionsDrawer
        flowId={flow.id}
        open={dialog === "versions"}
        onClose={() => setDialog(null)}
        beforeRestore={autosave.flush}
        onRestored={(restored) => takeStored(restored)}
      />
      <RunsDrawer flowId={flow.id} open={dialog === "runs"} onClose={() => setDialog(null)} nodes={runNodes} />
      <PublishDialog flow={dialog === "publish" ? { id: flow.id, title } : null} onClose={() => setDialog(null)} />
      <DebugNodeDialog flowId={flow.id} node={debugNode ? editorNodeOf(debugNode) : null} beforeRun={autosave.flush} onClose={() => setDebugNodeId(null)} />
    </EditorContext.Provider>
  );
}

import { IconButton } from "@chakra-ui/react";
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import { useTranslation } from "react-i18next";
import { LuX } from "react-icons/lu";
import { useEditorContext } from "./editorContext";

/** An edge with a delete button at its middle (RAGFlow's buttonEdge), shown when the edge is selected or the pointer is there. */
export function ButtonEdge({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, selected, markerEnd, style }: EdgeProps) {
  const { t } = useTranslation();
  const { deleteEdge } = useEditorContext();
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={{ ...style, strokeWidth: selected ? 2.5 : 1.5 }} interactionWidth={24} />
      <EdgeLabelRenderer>
        <IconButton
          aria-label={t("flow.editor.deleteEdge")}
          title={t("flow.editor.deleteEdge")}
          size="2xs"
          rounded="full"
          variant="subtle"
          className="nodrag nopan"
          // shown on the selected edge, and to a pointer at the edge's middle
          opacity={selected ? 1 : 0}
          _hover={{ opacity: 1 }}
          _focusVisible={{ opacity: 1 }}
          position="absolute"
          pointerEvents="all"
          transform={`translate(-50%, -50%) translate(${labelX}px, ${labelY}px)`}
          onClick={() => deleteEdge(id)}
          data-testid="flow-edge-delete"
        >
          <LuX />
        </IconButton>
      </EdgeLabelRenderer>
    </>
  );
}

import { Box, Textarea } from "@chakra-ui/react";
import type { NodeProps } from "@xyflow/react";
import { useTranslation } from "react-i18next";
import type { FlowNode } from "./flowGraph";
import { useEditorContext } from "./editorContext";

/** A sticky note (RAGFlow's Note): text on the canvas, never connected, never run. */
export function NoteNode({ id, data, selected }: NodeProps<FlowNode>) {
  const { t } = useTranslation();
  const { setParams } = useEditorContext();
  const text = typeof data.params.text === "string" ? data.params.text : "";
  return (
    <Box
      width="220px"
      height="140px"
      bg={{ base: "yellow.100", _dark: "yellow.900" }}
      borderWidth="1px"
      borderColor={selected ? "yellow.500" : { base: "yellow.300", _dark: "yellow.700" }}
      rounded="md"
      shadow="sm"
      p="2"
      data-testid="flow-note"
    >
      <Box fontSize="xs" fontWeight="semibold" color={{ base: "yellow.800", _dark: "yellow.200" }} mb="1">
        {data.name}
      </Box>
      <Textarea
        className="nodrag nowheel"
        variant="flushed"
        size="sm"
        height="calc(100% - 1.5rem)"
        resize="none"
        border="none"
        value={text}
        placeholder={t("flow.editor.notePlaceholder")}
        onChange={(event) => setParams(id, { ...data.params, text: event.target.value }, `note:${id}`)}
        data-testid="flow-note-text"
      />
    </Box>
  );
}

import type { ComponentDefinition } from "../../component";

/** A sticky note on the canvas: kept with the drawing, never connected, never run. */
export const Note: ComponentDefinition = {
  name: "Note",
  category: "core",
  icon: "LuStickyNote",
  params: [{ key: "text", type: "text", label: "flow.components.Note.params.text", default: "" }],
  restrictedTargets: [],
  editorOnly: true,
  async run() {
    return { content: "" };
  },
};

import fs from "node:fs";
import path from "node:path";
import type { FlowDsl } from "./dsl";
import { drawingOutline } from "./drawing-outline";

const ragflowTemplate = JSON.parse(fs.readFileSync(path.join(__dirname, "testing/ragflow-v0.14/templates-general_chat_bot.json"), "utf8")) as { dsl: FlowDsl };

describe("a flow's drawing outline (the list's thumbnail)", () => {
  test("keeps every node's place, size and component and every edge, and none of the forms", () => {
    const outline = drawingOutline(ragflowTemplate.dsl);
    expect(outline.nodes).toHaveLength(ragflowTemplate.dsl.graph!.nodes.length);
    expect(outline.edges).toHaveLength(ragflowTemplate.dsl.graph!.edges.length);
    expect(outline.nodes[0]).toEqual({ id: "begin", type: "beginNode", position: { x: -1128.7777718344705, y: 244.52466633336172 }, width: 100, height: 44, data: { label: "Begin" } });
    expect(JSON.stringify(outline)).not.toContain("prologue");
    expect(JSON.stringify(outline).length).toBeLessThan(JSON.stringify(ragflowTemplate.dsl.graph).length / 3);
  });

  test("a flow without a drawing has an empty outline", () => {
    expect(drawingOutline({ components: {} })).toEqual({ nodes: [], edges: [] });
    expect(drawingOutline({ components: {}, graph: "odd" } as unknown as FlowDsl)).toEqual({ nodes: [], edges: [] });
  });

  test("malformed nodes are left out with the edges that touch them", () => {
    const dsl = {
      components: {},
      graph: {
        nodes: [
          { id: "a", position: { x: 0, y: 0 }, measured: { width: 120, height: 40 } },
          { id: "b", position: { x: "far", y: 0 } },
          { id: 3, position: { x: 0, y: 0 } },
          null,
          { id: "c", position: { x: 200, y: 10 }, data: { label: "Answer" } },
        ],
        edges: [{ source: "a", target: "c" }, { source: "a", target: "b" }, { source: "a" }, "edge"],
      },
    } as unknown as FlowDsl;
    const outline = drawingOutline(dsl);
    expect(outline.nodes.map((node) => node.id)).toEqual(["a", "c"]);
    expect(outline.nodes[0]).toMatchObject({ width: 120, height: 40 });
    expect(outline.edges).toEqual([{ source: "a", target: "c" }]);
  });
});

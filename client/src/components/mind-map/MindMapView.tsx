import { Box, Center } from "@chakra-ui/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";

interface MindMapNode {
  id: string;
  label: string;
  children: MindMapNode[];
}

interface Placed {
  node: MindMapNode;
  depth: number;
  y: number;
  children: Placed[];
}

const ROW = 30;
const COLUMN = 220;
const MAX_LABEL = 28;

function asNode(value: unknown): MindMapNode | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  const children = Array.isArray(record.children) ? record.children.map(asNode).filter((child): child is MindMapNode => child !== null) : [];
  return { id: String(record.id ?? record.label ?? ""), label: String(record.label ?? record.id ?? ""), children };
}

/** A tidy tree, left to right: each leaf gets its own row and a parent sits midway between its first and last child. */
function place(root: MindMapNode): { tree: Placed; rows: number; depth: number } {
  let row = 0;
  let deepest = 0;
  const visit = (node: MindMapNode, depth: number): Placed => {
    deepest = Math.max(deepest, depth);
    if (node.children.length === 0) return { node, depth, y: row++, children: [] };
    const children = node.children.map((child) => visit(child, depth + 1));
    return { node, depth, y: (children[0].y + children[children.length - 1].y) / 2, children };
  };
  const tree = visit(root, 0);
  return { tree, rows: Math.max(row, 1), depth: deepest };
}

const short = (label: string) => (label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1)}…` : label);

/** A mind map (a knowledge base's, or a search answer's) as a tree drawn in SVG. */
export function MindMapView({ mindMap }: { mindMap: Record<string, unknown> | null | undefined }) {
  const { t } = useTranslation();
  const layout = useMemo(() => {
    const root = asNode(mindMap);
    return root ? place(root) : null;
  }, [mindMap]);

  if (!layout || layout.tree.children.length === 0) {
    return (
      <Center py="16" bg="bg.panel" borderWidth="1px" rounded="l3" color="fg.muted" data-testid="mind-map-empty">
        {t("kb.chunk.mindMapEmpty")}
      </Center>
    );
  }

  const width = (layout.depth + 1) * COLUMN + 40;
  const height = layout.rows * ROW + 20;
  const x = (placed: Placed) => 20 + placed.depth * COLUMN;
  const y = (placed: Placed) => 10 + placed.y * ROW + ROW / 2;
  const all: Placed[] = [];
  const collect = (placed: Placed) => {
    all.push(placed);
    placed.children.forEach(collect);
  };
  collect(layout.tree);

  return (
    <Box bg="bg.panel" borderWidth="1px" rounded="l3" overflow="auto" maxHeight="70vh" p="2" data-testid="mind-map">
      <svg width={width} height={height} role="img" aria-label={t("kb.chunk.mindMap")} style={{ display: "block" }}>
        {all.flatMap((parent) =>
          parent.children.map((child) => {
            const x1 = x(parent) + 8;
            const x2 = x(child);
            const middle = (x1 + x2) / 2;
            return (
              <path
                key={`${parent.node.id}-${child.node.id}-${child.y}`}
                d={`M${x1},${y(parent)} C${middle},${y(parent)} ${middle},${y(child)} ${x2},${y(child)}`}
                fill="none"
                stroke="var(--chakra-colors-brand-emphasized)"
                strokeWidth={1.5}
              />
            );
          }),
        )}
        {all.map((placed) => (
          <g key={`${placed.node.id}-${placed.depth}-${placed.y}`} transform={`translate(${x(placed)},${y(placed)})`}>
            <circle r={placed.depth === 0 ? 6 : 4} fill={placed.depth === 0 ? "var(--chakra-colors-brand-solid)" : "var(--chakra-colors-brand-fg)"} />
            <text x={10} dy="0.35em" fontSize={placed.depth === 0 ? 14 : 12} fontWeight={placed.depth < 2 ? 600 : 400} fill="var(--chakra-colors-fg)" stroke="var(--chakra-colors-bg-panel)" strokeWidth={4} paintOrder="stroke" strokeLinejoin="round">
              {short(placed.node.label)}
              <title>{placed.node.label}</title>
            </text>
          </g>
        ))}
      </svg>
    </Box>
  );
}

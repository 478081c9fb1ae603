import fs from "node:fs";
import path from "node:path";
import { LOCALES_DIR } from "../../platform/messages";
import { BEGIN_ID } from "../dsl";
import { FLOW_TEMPLATES } from "./index";
import { componentNameOf, routeHandle } from "./template-graph";

/**
 * What a user gets from "create from template", before anything runs: the template is introduced in their
 * language, opens in the editor as a readable graph, and is theirs to configure (their default model, their
 * knowledge bases). That it validates and runs is templates.test.ts's business.
 */

const locales = fs.readdirSync(LOCALES_DIR).filter((f) => f.endsWith(".json"));
const message = (file: string, key: string): unknown => key.split(".").reduce<any>((node, part) => node?.[part], JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, file), "utf8"))); // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every value of `key` anywhere in the params (Generate's llm_id, Retrieval's kb_ids). */
function valuesOf(params: unknown, key: string): unknown[] {
  if (Array.isArray(params)) return params.flatMap((v) => valuesOf(v, key));
  if (typeof params !== "object" || params === null) return [];
  return Object.entries(params).flatMap(([k, v]) => (k === key ? [v] : valuesOf(v, key)));
}

test("there are RAGFlow's ten templates and Cairn's own, each with its own id", () => {
  const ids = FLOW_TEMPLATES.map((t) => t.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual(
    expect.arrayContaining([
      "web-search-assistant", "general-chatbot", "recruiting-assistant", "customer-service", "interpreter",
      "text-to-sql", "db-assistant", "medical-consultation", "investment-advisor", "seo-blog-writer",
      "knowledge-base-qa", "support-triage",
    ]),
  );
});

describe.each(FLOW_TEMPLATES.map((t) => [t.id, t] as const))("the %s template", (id, template) => {
  const { components, graph } = template.dsl;
  const nodes = graph?.nodes ?? [];
  const edges = graph?.edges ?? [];

  test("has its title and description in every language", () => {
    expect(template.title).toBe(`flow.templates.${id}.title`);
    expect(template.description).toBe(`flow.templates.${id}.description`);
    for (const file of locales) {
      expect([file, message(file, template.title)]).toEqual([file, expect.stringMatching(/\S/)]);
      expect([file, message(file, template.description)]).toEqual([file, expect.stringMatching(/^.{20,}$/)]);
    }
  });

  test("starts at Begin, and every component is a node of the graph with a position and a name of its own", () => {
    expect(components[BEGIN_ID]?.obj.component_name).toBe("Begin");
    for (const [componentId, component] of Object.entries(components)) {
      expect(component.obj.component_name).toBe(componentNameOf(componentId));
      const node = nodes.find((n) => n.id === componentId);
      expect(node).toMatchObject({ position: { x: expect.any(Number), y: expect.any(Number) }, data: { label: component.obj.component_name, name: expect.stringMatching(/\S/) } });
    }
    const names = nodes.map((n) => n.data?.name);
    expect(new Set(names).size).toBe(names.length);
    // no two nodes on top of each other: a node is ~200 px wide and ~60 px high on the canvas
    const crowded = nodes.flatMap((a, i) => nodes.slice(i + 1).filter((b) => Math.abs(a.position.x - b.position.x) < 220 && Math.abs(a.position.y - b.position.y) < 80).map((b) => `${a.id} / ${b.id}`));
    expect(crowded).toEqual([]);
  });

  test("draws each link once, with the port a routing component sends it through", () => {
    const links = Object.entries(components).flatMap(([source, c]) => c.downstream.map((target) => `${source}->${target}`));
    expect(edges.map((e) => `${e.source}->${e.target}`).sort()).toEqual([...links].sort());
    expect(new Set(links).size).toBe(links.length);
    for (const [componentId, c] of Object.entries(components)) {
      for (const upstream of c.upstream) expect(components[upstream].downstream).toContain(componentId);
      expect(c.downstream).not.toContain(componentId);
    }
    for (const edge of edges) {
      const source = components[edge.source].obj;
      expect(edge.sourceHandle).toBe(routeHandle(source.component_name, source.params, edge.target) ?? "b");
    }
  });

  test("every route of a routing component leads to one of its downstream components", () => {
    for (const c of Object.values(components)) {
      const { component_name: name, params } = c.obj;
      const targets =
        name === "Categorize" ? Object.values(params.category_description as Record<string, { to: string }>).map((category) => category.to)
        : name === "Switch" ? [...(params.conditions as { to: string }[]).map((condition) => condition.to), params.end_cpn_id]
        : name === "Relevant" ? [params.yes, params.no]
        : [];
      expect([...new Set(targets)].sort()).toEqual(targets.length ? [...c.downstream].sort() : []);
    }
  });

  test("every value it reads names a component of the flow or an input of Begin", () => {
    const beginInputs = ((components[BEGIN_ID].obj.params.query ?? []) as { key: string }[]).map((input) => `begin@${input.key}`);
    const readable = new Set([...Object.keys(components), ...beginInputs]);
    const references = Object.values(components).flatMap((c) => [...valuesOf(c.obj.params, "component_id"), ...valuesOf(c.obj.params, "cpn_id")]);
    expect(references.filter((r) => !readable.has(r as string))).toEqual([]);
  });

  test("uses the tenant's default chat model and lets the user choose the knowledge bases", () => {
    expect(valuesOf(components, "llm_id").filter((v) => v !== "")).toEqual([]);
    expect(valuesOf(components, "kb_ids").filter((v) => !Array.isArray(v) || v.length > 0)).toEqual([]);
    const needsKnowledge = Object.values(components).some((c) => c.obj.component_name === "Retrieval");
    if (!needsKnowledge) expect(template.needs).not.toContain("knowledgeBase");
  });
});

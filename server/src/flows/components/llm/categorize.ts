import type { ParamIssue } from "../../../platform/param-spec";
import type { ComponentContext, ComponentDefinition, RoutePort } from "../../component";
import type { FlowDsl } from "../../dsl";
import { DESCRIPTION, historyWindow, modelParams } from "../../params";
import { termShare } from "./lexical";
import { unknownRouteTargets } from "./route-targets";
import { askModel, chatModelOf, componentError, generationOptions, inputText, recentMessages } from "./model-call";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * Categorize (RAGFlow v0.14 `agent/component/categorize.py`): a chat model puts the text it reads into one of
 * its categories, from their descriptions and examples (a few-shot prompt); the run goes on to that
 * category's `to`. The answer is matched to the category names in order; when none matches, the last
 * category is the fallback. The built-in extractive model cannot classify, so for it the category whose
 * name, description or an example shares the most terms with the text is chosen.
 */

const NAME = "Categorize";
const text = (key: string) => `flow.components.${NAME}.${key}`;

export interface Category {
  description?: string;
  /** One example a line. */
  examples?: string;
  /** The component the run goes to for this category. */
  to?: string;
}

function categoriesOf(params: Record<string, unknown>): [string, Category][] {
  return isPlainObject(params.category_description) ? (Object.entries(params.category_description).filter(([, c]) => isPlainObject(c)) as [string, Category][]) : [];
}

/** The shape of the categories: a name and an object each. A new Categorize has none yet; the flow's check asks for them (categoryIssues). */
function checkCategories(value: unknown): ParamIssue[] {
  if (!isPlainObject(value)) return [{ code: "type", messageKey: "flow.components.Categorize.errors.noCategories" }];
  return Object.entries(value).flatMap(([name, category]): ParamIssue[] =>
    !name.trim() || !isPlainObject(category) ? [{ path: name, code: "type", messageKey: "flow.components.Categorize.errors.categoryName" }] : [],
  );
}

/** Before a run: at least one category, and each leads to a component the flow has (RAGFlow's `check`). */
function categoryIssues(params: Record<string, unknown>, flow: FlowDsl): ParamIssue[] {
  const categories = categoriesOf(params);
  if (categories.length === 0) return [{ path: "category_description", code: "required", messageKey: "flow.components.Categorize.errors.noCategories" }];
  const unlinked = categories.flatMap(([name, category]): ParamIssue[] =>
    category.to ? [] : [{ path: `category_description.${name}.to`, code: "required", messageKey: "flow.components.Categorize.errors.categoryTo", params: { name } }],
  );
  return [...unlinked, ...unknownRouteTargets(routes(params), flow, (route) => `category_description.${route.handle}.to`)];
}

/** RAGFlow's classifier prompt: the categories, their descriptions, their examples as dialogue, then the text. */
export function categorizePrompt(categories: [string, Category][], realData: string): string {
  const descriptions = categories.filter(([, c]) => c.description).map(([name, c]) => `--------------------\nCategory: ${name}\nDescription: ${c.description}\n`);
  const examples = categories.flatMap(([name, c]) => (c.examples ?? "").split("\n").filter((line) => line.trim() !== "").map((line) => `USER: ${line}\nCategory: ${name}`));
  return `You're a text classifier. You need to categorize the user's questions into ${categories.length} categories,
namely: ${categories.map(([name]) => name).join("/")}
Here's description of each category:
${descriptions.join("\n")}

You could learn from the following examples:
${examples.join("\n- ")}
You could learn from the above examples.
Just mention the category names, no need for any additional words.

---- Real Data ----
${realData}`;
}

/** The text to classify, after the messages of the window that came before it. */
function realData(context: ComponentContext, input: string): string {
  const window = recentMessages(context.history, context.params.message_history_window_size);
  if (window.at(-1)?.content === input) window.pop();
  return [...window.map((m) => `${m.role === "user" ? "USER" : "ASSISTANT"}: ${m.content}`), `USER: ${input}`].join("\n");
}

/** The category whose name, description or one example shares the largest share of the text's terms; the last when none shares any. */
function closestCategory(categories: [string, Category][], input: string): string {
  let best = categories[categories.length - 1][0];
  let bestShare = 0;
  for (const [name, category] of categories) {
    const texts = [name, category.description ?? "", ...(category.examples ?? "").split("\n")];
    const share = Math.max(...texts.map((t) => termShare(input, t)));
    if (share > bestShare) [best, bestShare] = [name, share];
  }
  return best;
}

/** One port per category: its name is the edge's handle and the port's label. */
function routes(params: Record<string, unknown>): RoutePort[] {
  return categoriesOf(params).map(([name, category]) => ({ handle: name, target: category.to || null, label: name, literal: true }));
}

export const categorizeComponent: ComponentDefinition = {
  name: NAME,
  category: "core",
  restrictedTargets: ["Begin", "Categorize", "Answer", "Relevant"],
  icon: "LuSplit",
  params: [
    DESCRIPTION,
    ...modelParams(),
    historyWindow(1),
    { key: "category_description", type: "json", label: text("params.category_description"), help: text("help.category_description"), default: {}, widget: "categories", check: checkCategories },
  ],
  outputs: [{ name: "category", label: text("outputs.category"), type: "text" }],
  routes,
  connect(params, handle, target) {
    const categories = isPlainObject(params.category_description) ? params.category_description : {};
    const category = categories[handle];
    if (!isPlainObject(category)) return params;
    return { ...params, category_description: { ...categories, [handle]: { ...category, to: target ?? "" } } };
  },
  checkInFlow: categoryIssues,
  async run(context) {
    const categories = categoriesOf(context.params);
    if (categories.length === 0) throw componentError("BAD_REQUEST", NAME, "noCategories");
    const input = inputText(context);
    const model = await chatModelOf(context);
    let chosen: string;
    if (model.extractive) chosen = closestCategory(categories, input);
    else {
      const answer = (
        await askModel(context, model, [{ role: "system", content: categorizePrompt(categories, realData(context, input)) }, { role: "user", content: "\nCategory: " }], generationOptions(context.params, context.signal))
      ).toLowerCase();
      chosen = categories.find(([name]) => answer.includes(name.toLowerCase()))?.[0] ?? categories[categories.length - 1][0];
    }
    const to = categories.find(([name]) => name === chosen)?.[1].to;
    return { content: chosen, values: { category: chosen }, next: to ? [to] : [] };
  },
};

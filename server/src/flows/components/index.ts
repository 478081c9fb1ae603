import type { ComponentDefinition } from "../component";
import { CORE_COMPONENTS } from "./core";
import { LLM_COMPONENTS } from "./llm";
import { SEARCH_COMPONENTS } from "./search";
import { SERVICES_COMPONENTS } from "./services";
import { TOOLS_COMPONENTS } from "./tools";

/**
 * Every flow component Cairn has, in the editor's palette order (Begin, RAGFlow's `componentMenuList`, then
 * Cairn's own; a component not named there comes last). Each folder lists its components; a component is one
 * file there and one line in its folder's list.
 */
const PALETTE_ORDER = [
  "Begin",
  // RAGFlow v0.14's componentMenuList
  ...["Retrieval", "Generate", "Answer", "Categorize", "Message", "Relevant", "RewriteQuestion", "KeywordExtract", "Switch", "Concentrator", "Template", "Note"],
  ...["DuckDuckGo", "Baidu", "Wikipedia", "PubMed", "ArXiv", "Google", "Bing", "GoogleScholar", "DeepL", "GitHub", "BaiduFanyi", "QWeather", "ExeSQL"],
  ...["WenCai", "AkShare", "YahooFinance", "Jin10", "TuShare", "Crawler", "Invoke"],
  // Cairn's own
  ...["Agent", "Iteration", "Code"],
];

const paletteIndex = (component: ComponentDefinition) => {
  const index = PALETTE_ORDER.indexOf(component.name);
  return index < 0 ? PALETTE_ORDER.length : index;
};

export const COMPONENTS: readonly ComponentDefinition[] = [...LLM_COMPONENTS, ...CORE_COMPONENTS, ...SEARCH_COMPONENTS, ...SERVICES_COMPONENTS, ...TOOLS_COMPONENTS].sort(
  (a, b) => paletteIndex(a) - paletteIndex(b),
);

const BY_NAME = new Map(COMPONENTS.map((component) => [component.name, component]));

export function componentNamed(name: string): ComponentDefinition | undefined {
  return BY_NAME.get(name);
}

import type { ComponentDefinition } from "../../component";
import { arXiv } from "./arxiv";
import { baidu } from "./baidu";
import { bing } from "./bing";
import { duckDuckGo } from "./duckduckgo";
import { gitHub } from "./github";
import { google } from "./google";
import { googleScholar } from "./google-scholar";
import { pubMed } from "./pubmed";
import { wikipedia } from "./wikipedia";

/** The search components, in palette order (RAGFlow v0.14's componentMenuList; one import and one line each). */
export const SEARCH_COMPONENTS: readonly ComponentDefinition[] = [
  baidu,
  duckDuckGo,
  wikipedia,
  pubMed,
  arXiv,
  google,
  bing,
  googleScholar,
  gitHub,
];

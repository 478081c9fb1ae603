import type { ChunkMethod } from "../types";
import { finishChunks } from "./blocks";
import { withNumberedHeadings } from "./numbering";
import { sectionChunks, sectionsOf, settingsOf } from "./sections";
import { BASE_PARSER_DEFAULTS, DOCUMENT_METHOD_PARAMS, ENRICHMENT_OFF } from "./parser-params";

/**
 * "Manual": one section of the heading hierarchy at a time; every chunk opens with its section path
 * ("Installation > Linux > Packages") so that a retrieved chunk says where it belongs, and tables are
 * kept whole.
 */
export const manualMethod: ChunkMethod = {
  name: "manual",
  fileTypes: ["pdf", "docx", "md", "markdown", "html", "htm"],
  params: DOCUMENT_METHOD_PARAMS,
  defaults: { ...BASE_PARSER_DEFAULTS, ...ENRICHMENT_OFF },
  async chunk(document, context) {
    const settings = settingsOf(context);
    const sections = sectionsOf(withNumberedHeadings(document.blocks));
    return { chunks: finishChunks(sections.flatMap((section) => sectionChunks(section, settings, { wholeTables: true }))) };
  },
};

import { logMessage } from "../parse-log";
import { countTokens } from "../../models/tokens";
import type { Block, BlockPosition, ChunkDraft, ChunkMethod } from "../types";
import { blockText, finishChunks, splitLines } from "./blocks";
import { chunkTokenLimit, joinPositions, mergePieces } from "./token-budget";
import { BASE_PARSER_DEFAULTS, ENRICHMENT_PARAMS } from "./parser-params";

/**
 * "Resume": typed fields read heuristically from a CV — name, e-mail, phone, and the sections a CV has
 * (summary, education, work experience, projects, skills, …, by their English or Chinese names) — with
 * one chunk per field group titled with the field's name. RAGFlow sends resumes to a hosted parsing
 * service; this is an offline reading of the same fields from the text.
 */

export const RESUME_SECTIONS: { field: string; title: string; names: RegExp }[] = [
  { field: "summary", title: "Summary", names: /^(?:summary|professional summary|profile|about me|objective|career objective|personal statement|个人简介|个人总结|自我评价|自我介绍|个人优势|求职意向|自我評價|個人簡介)$/i },
  { field: "education", title: "Education", names: /^(?:education|educational background|academic background|academic qualifications|education and training|教育经历|教育背景|学历|教育經歷|教育背景|學歷)$/i },
  { field: "work_experience", title: "Work experience", names: /^(?:work experience|experience|professional experience|employment|employment history|work history|career history|工作经历|工作经验|实习经历|工作經歷|工作經驗|實習經歷)$/i },
  { field: "projects", title: "Projects", names: /^(?:projects|project experience|selected projects|项目经历|项目经验|項目經歷|專案經歷)$/i },
  { field: "skills", title: "Skills", names: /^(?:skills|technical skills|core skills|key skills|competencies|skills and tools|专业技能|技能|技能特长|个人技能|專業技能|技能專長)$/i },
  { field: "certifications", title: "Certifications", names: /^(?:certifications|certificates|licenses|证书|资格证书|證書)$/i },
  { field: "awards", title: "Awards", names: /^(?:awards|honors|honours|awards and honors|获奖经历|荣誉奖项|获奖情况|獲獎經歷|榮譽)$/i },
  { field: "languages", title: "Languages", names: /^(?:languages|language skills|语言能力|语言|語言能力)$/i },
  { field: "publications", title: "Publications", names: /^(?:publications|论文|发表论文|論文)$/i },
  { field: "interests", title: "Interests", names: /^(?:interests|hobbies|兴趣爱好|興趣愛好)$/i },
];

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const PHONE = /(?:\+?\d{1,3}[\s-]?)?(?:\(\d{2,4}\)[\s-]?)?\d{3,4}[\s-]?\d{3,4}(?:[\s-]?\d{3,4})?/;
const LABELLED = /^(姓\s*名|name|电\s*话|手\s*机|phone|mobile|tel|邮\s*箱|e-?mail|电子邮件|地\s*址|address|linkedin|github|website)\s*[:：]\s*(.+)$/i;

function sectionOf(text: string): (typeof RESUME_SECTIONS)[number] | undefined {
  const name = text.trim().replace(/[:：]$/, "").trim();
  if (name.length > 40) return undefined;
  return RESUME_SECTIONS.find((s) => s.names.test(name));
}

/** A line that could be a person's name: two to four capitalised words, or two to four Chinese characters. */
function looksLikeName(text: string): boolean {
  const line = text.trim();
  return /^[\p{Lu}][\p{L}'.-]+(?:\s+[\p{Lu}][\p{L}'.-]+){1,3}$/u.test(line) || /^[\u4e00-\u9fff]{2,4}$/.test(line);
}

export interface ResumeReading {
  fields: Record<string, string>;
  groups: { field: string; title: string; text: string; positions?: BlockPosition[] }[];
}

export function readResume(blocks: Block[]): ResumeReading {
  const lines = splitLines(blocks).filter((b) => blockText(b) !== "");
  const fields: Record<string, string> = {};
  const sections = new Map<string, { title: string; lines: string[]; positions?: BlockPosition[] }>();
  const header: { lines: string[]; positions?: BlockPosition[] } = { lines: [] };
  let current: { title: string; lines: string[]; positions?: BlockPosition[] } | undefined;
  for (const block of lines) {
    const text = blockText(block);
    const section = block.kind === "table" ? undefined : sectionOf(text);
    if (section) {
      current = sections.get(section.field) ?? { title: section.title, lines: [] };
      sections.set(section.field, current);
      current.positions = joinPositions(current.positions, block.positions);
      continue;
    }
    const target = current ?? header;
    target.lines.push(text);
    target.positions = joinPositions(target.positions, block.positions);
  }

  // Contact details may sit anywhere, most often in the header lines.
  const all = lines.map(blockText);
  for (const line of all) {
    const labelled = LABELLED.exec(line);
    if (!labelled) continue;
    const label = labelled[1].toLowerCase().replace(/\s+/g, "");
    const value = labelled[2].trim();
    if (/姓名|name/.test(label)) fields.name ??= value;
    else if (/电话|手机|phone|mobile|tel/.test(label)) fields.phone ??= value;
    else if (/邮箱|mail|电子邮件/.test(label)) fields.email ??= value;
    else if (/地址|address/.test(label)) fields.address ??= value;
    else fields[label] ??= value;
  }
  fields.email ??= all.map((l) => EMAIL.exec(l)?.[0]).find((m) => m !== undefined) ?? "";
  if (!fields.email) delete fields.email;
  if (!fields.phone) {
    const phone = all.map((l) => l.replace(EMAIL, "")).map((l) => PHONE.exec(l)?.[0]).find((m) => m !== undefined && m.replace(/\D/g, "").length >= 7);
    if (phone) fields.phone = phone.trim();
  }
  if (!fields.name) {
    const name = header.lines.find((l) => looksLikeName(l) && !EMAIL.test(l));
    if (name) fields.name = name.trim();
  }

  const groups: ResumeReading["groups"] = [];
  const contact = ["name", "email", "phone", "address", "linkedin", "github", "website"]
    .filter((key) => fields[key])
    .map((key) => `${key}: ${fields[key]}`);
  const headerRest = header.lines.filter((l) => !Object.values(fields).some((v) => l.includes(v)) && !LABELLED.test(l));
  if (contact.length > 0 || headerRest.length > 0) {
    groups.push({ field: "contact", title: "Contact", text: [...contact, ...headerRest].join("\n"), positions: header.positions });
    if (headerRest.length > 0 && !sections.has("summary")) fields.summary = headerRest.join("\n");
  }
  for (const section of RESUME_SECTIONS) {
    const found = sections.get(section.field);
    if (!found || found.lines.length === 0) continue;
    fields[section.field] = found.lines.join("\n");
    groups.push({ field: section.field, title: section.title, text: found.lines.join("\n"), positions: found.positions });
  }
  return { fields, groups };
}

export const resumeMethod: ChunkMethod = {
  name: "resume",
  fileTypes: ["pdf", "docx", "txt", "md"],
  params: ENRICHMENT_PARAMS,
  defaults: BASE_PARSER_DEFAULTS,
  async chunk(document, context) {
    const { fields, groups } = readResume(document.blocks);
    const budget = chunkTokenLimit(context.config);
    const drafts: ChunkDraft[] = [];
    for (const group of groups) {
      const groupFields = group.field === "contact" ? pick(fields, ["name", "email", "phone", "address", "linkedin", "github", "website"]) : { [group.field]: group.text };
      const prefix = `${group.title}\n`;
      const parts = mergePieces(
        group.text.split("\n").map((text) => ({ text, separator: "\n" })),
        Math.max(16, budget - countTokens(prefix)),
      );
      for (const part of parts) {
        drafts.push({ text: prefix + part.text, title: group.title, fields: groupFields, positions: group.positions });
      }
    }
    const notes = fields.name ? [] : [logMessage("parseLog.resumeNoName")];
    return { chunks: finishChunks(drafts), notes };
  },
};

function pick(fields: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => fields[k]).map((k) => [k, fields[k]]));
}

import { customerService } from "./customer-service";
import { dbAssistant } from "./db-assistant";
import { generalChatbot } from "./general-chatbot";
import { interpreter } from "./interpreter";
import { investmentAdvisor } from "./investment-advisor";
import { knowledgeBaseQa } from "./knowledge-base-qa";
import { medicalConsultation } from "./medical-consultation";
import { meetingMinutes } from "./meeting-minutes";
import { recruitingAssistant } from "./recruiting-assistant";
import { researchDigest } from "./research-digest";
import { seoBlogWriter } from "./seo-blog-writer";
import { supportTriage } from "./support-triage";
import { textToSql } from "./text-to-sql";
import { webSearchAssistant } from "./web-search-assistant";

import type { FlowTemplate } from "./flow-template";

export type { FlowTemplate };

/** In the order the "create a flow" dialog offers them: Cairn's built-in-model flows first, then RAGFlow's. */
export const FLOW_TEMPLATES: readonly FlowTemplate[] = [
  knowledgeBaseQa,
  supportTriage,
  researchDigest,
  meetingMinutes,
  customerService,
  webSearchAssistant,
  generalChatbot,
  recruitingAssistant,
  interpreter,
  textToSql,
  dbAssistant,
  medicalConsultation,
  investmentAdvisor,
  seoBlogWriter,
];

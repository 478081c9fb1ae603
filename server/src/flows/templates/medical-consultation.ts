import type { FlowTemplate } from "./flow-template";
import { generateParams, retrievalParams, templateDsl } from "./template-graph";

/**
 * RAGFlow's "Medical consultation": the question is looked up in a medical Q&A knowledge base and, put into English
 * medical terms, in PubMed; a careful answer cites both. RAGFlow's version also translated the question into
 * Chinese for its Chinese knowledge base; here the knowledge base is searched with the question as asked.
 */

export const medicalConsultation: FlowTemplate = {
  id: "medical-consultation",
  title: "flow.templates.medical-consultation.title",
  description: "flow.templates.medical-consultation.description",
  needs: ["knowledgeBase", "internet"],
  dsl: templateDsl(
    [
      { id: "begin", name: "Begin", at: [0, 1], params: { prologue: "Hello! Tell me about your health question, and I'll look for answers in our medical knowledge base and in PubMed. My answers are for reference only and do not replace a doctor." } },
      { id: "Answer:Interact", name: "Interact", at: [1, 1] },
      { id: "Retrieval:MedicalQA", name: "Medical Q&A", at: [2.5, 0.3], params: retrievalParams() },
      {
        id: "Generate:EnglishQuery",
        name: "Medical English",
        at: [2, 1.7],
        params: generateParams(
          "Role: You translate patients' medical questions into English for a literature search.\n\nTask: Put the user's latest question into precise English medical terms, keeping every symptom and detail; when it is already in English, rephrase it in medical terms.\n\nExample:\nQuestion: I keep feeling tightness in my chest lately, and sometimes my heart races.\nTranslation: Recent chest tightness with episodic palpitations.\n\nAnswer with the translation only, nothing else.",
          { window: 1 },
        ),
      },
      { id: "PubMed:Literature", name: "PubMed", at: [3, 1.7], params: { top_n: 5, email: "you@example.com" } },
      {
        id: "Generate:Advice",
        name: "Medical advice",
        at: [4, 1],
        params: generateParams(
          "Role: You are a careful medical consulting assistant.\n\nTask: Answer the user's question from the knowledge base and PubMed content below.\n\nRequirements:\n- Use the content provided; invent nothing it does not support.\n- Link every PubMed article you use to its URL.\n- Be professional and accurate, in the language of the question.\n- End by reminding the user that this is for reference only and that a doctor should be consulted.\n\n## Knowledge base\n{kb_input}\n\n## PubMed\n{pm_input}",
          { cite: true, parameters: { kb_input: "Retrieval:MedicalQA", pm_input: "PubMed:Literature" } },
        ),
      },
    ],
    [
      ["begin", "Answer:Interact"],
      ["Answer:Interact", "Retrieval:MedicalQA"],
      ["Answer:Interact", "Generate:EnglishQuery"],
      ["Generate:EnglishQuery", "PubMed:Literature"],
      ["Retrieval:MedicalQA", "Generate:Advice"],
      ["PubMed:Literature", "Generate:Advice"],
      ["Generate:Advice", "Answer:Interact"],
    ],
    [{ name: "Setup", at: [0, 2.3], text: "Choose a medical Q&A knowledge base in \"Medical Q&A\" (RAGFlow's is at https://huggingface.co/datasets/InfiniFlow/medical_QA) and put your e-mail in \"PubMed\" (NCBI asks for one)." }],
  ),
};

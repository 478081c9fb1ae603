import type { FlowTemplate } from "./flow-template";
import { generateParams, modelParams, retrievalParams, templateDsl } from "./template-graph";

/**
 * RAGFlow's "HR recruitment pitch assistant", in English: it pitches a job to a candidate, answers questions about
 * the job from its description (a knowledge base), keeps small talk friendly, and asks for a way to stay in touch.
 * The first exchange decides whether the candidate is interested; the next ones work towards their contact details.
 */

const RECRUITER = "You are a recruiter at our company, reaching out to an experienced engineer about a senior engineering role.";
const CONTACT = "Your e-mail is jobs@example.com. Do not repeat yourself, and do not open every message with a greeting.";

const ABOUT_JOB = {
  description: "The question is about the job itself or the company.",
  examples: "What is the role?\nWho would I report to?\nHow big is the company?\nWhat does the company make?\nWhat would I work on?\nWhere is the office?\nIs remote work possible?",
};
const SMALL_TALK = {
  description: "Small talk, not about the job or the company.",
  examples: "Hello\nLong time no see\nAre you a bot?\nHow is the market these days?\nWhat's your name?",
};

const answerFromJobDescription = (key: string) =>
  `${RECRUITER} The candidate asked about the job or the company. Answer from the job description below; when it does not say, answer that you will check and come back to them. Then ask for a way to stay in touch, for instance: \"Could I send you the full job description by e-mail?\"\n\nThe job description:\n{${key}}`;
const steerBack = `${RECRUITER} The candidate is chatting about something else. Reply kindly and patiently, bring the conversation back to the role, and try to get their e-mail address or phone number to stay in touch.`;

export const recruitingAssistant: FlowTemplate = {
  id: "recruiting-assistant",
  title: "flow.templates.recruiting-assistant.title",
  description: "flow.templates.recruiting-assistant.description",
  needs: ["knowledgeBase"],
  dsl: templateDsl(
    [
      {
        id: "begin",
        name: "Begin",
        at: [0, 1.5],
        params: { prologue: "Hello! I'm a recruiter, and I came across your profile — you're clearly an expert in your field. We're hiring a senior engineer for a role that could suit you well. Would you like to hear more?" },
      },
      { id: "Answer:Pitch", name: "First reply", at: [1, 1.5] },
      {
        id: "Categorize:Interest",
        name: "Interested?",
        at: [2, 1.5],
        params: modelParams({
          message_history_window_size: 1,
          category_description: {
            about_job: { ...ABOUT_JOB, to: "Retrieval:JobDescription" },
            small_talk: { ...SMALL_TALK, to: "Generate:SteerBack" },
            reject: {
              description: "The candidate is not interested in the job, or feels bothered.",
              examples: "No thanks\nNot interested\nNot looking right now\nI don't do this any more\nThat's not my field",
              to: "Message:Goodbye",
            },
            interested: {
              description: "The candidate is interested in the job and wants to know more.",
              examples: "Sure\nGo on\nTell me more\nYes\nOK\nWhat is it?",
              to: "Message:Introduction",
            },
          },
        }),
      },
      { id: "Message:Goodbye", name: "Goodbye", at: [3, 3], params: { messages: ["All right — thank you for your time, and all the best in your work!", "No problem, thanks for letting me know. Have a great day!"] } },
      { id: "Retrieval:JobDescription", name: "Job description", at: [3, 0], params: retrievalParams({ top_n: 6 }) },
      { id: "Generate:JobAnswer", name: "Answer about the job", at: [4, 0], params: generateParams(answerFromJobDescription("input")) },
      { id: "Generate:SteerBack", name: "Back to the job", at: [4, 1], params: generateParams(steerBack) },
      {
        id: "Message:Introduction",
        name: "Introduce the job",
        at: [4, 2],
        params: { messages: ["Here is the short version: we build an open-source platform that answers questions from a company's own documents, with sources. The role is hands-on, senior, and shapes the product. What would you like to know?"] },
      },
      { id: "Answer:Conversation", name: "Conversation", at: [5, 1.5] },
      {
        id: "Categorize:Contact",
        name: "Contact?",
        at: [6, 1.5],
        params: modelParams({
          message_history_window_size: 8,
          category_description: {
            about_job: { ...ABOUT_JOB, to: "Retrieval:JobDetails" },
            small_talk: { ...SMALL_TALK, to: "Generate:SmallTalk" },
            declines_contact: {
              description: "The candidate does not want to share contact details.",
              examples: "No thanks\nI'd rather not\nNot now\nWhy do you need my e-mail?",
              to: "Generate:RespectPrivacy",
            },
            gives_contact: {
              description: "The candidate agrees to stay in touch, or gives an e-mail address or a phone number.",
              examples: "Sure\nOK\nYes\njane.doe@example.org\n+1 555 0100",
              to: "Generate:ThankContact",
            },
          },
        }),
      },
      { id: "Retrieval:JobDetails", name: "Job details", at: [7, 0], params: retrievalParams({ top_n: 6 }) },
      { id: "Generate:JobDetailsAnswer", name: "Answer with details", at: [8, 0], params: generateParams(answerFromJobDescription("job_description"), { parameters: { job_description: "Retrieval:JobDetails" } }) },
      { id: "Generate:SmallTalk", name: "Small talk", at: [8, 1], params: generateParams(steerBack) },
      {
        id: "Generate:ThankContact",
        name: "Thank for the contact",
        at: [8, 2],
        params: generateParams(`${RECRUITER} The candidate agreed to stay in touch. If they gave an e-mail address or a phone number, thank them for their trust and say you will send the details right away; otherwise ask for one. ${CONTACT}`),
      },
      {
        id: "Generate:RespectPrivacy",
        name: "Respect privacy",
        at: [8, 3],
        params: generateParams(`${RECRUITER} The candidate declined to share contact details. Respect that and show you understand; you may ask what they think of the role or what holds them back, ask again later when the moment is right, or invite them to write to you. ${CONTACT}`),
      },
    ],
    [
      ["begin", "Answer:Pitch"],
      ["Answer:Pitch", "Categorize:Interest"],
      ["Categorize:Interest", "Retrieval:JobDescription"],
      ["Categorize:Interest", "Generate:SteerBack"],
      ["Categorize:Interest", "Message:Goodbye"],
      ["Categorize:Interest", "Message:Introduction"],
      ["Message:Goodbye", "Answer:Pitch"],
      ["Retrieval:JobDescription", "Generate:JobAnswer"],
      ["Generate:JobAnswer", "Answer:Conversation"],
      ["Generate:SteerBack", "Answer:Conversation"],
      ["Message:Introduction", "Answer:Conversation"],
      ["Answer:Conversation", "Categorize:Contact"],
      ["Categorize:Contact", "Retrieval:JobDetails"],
      ["Categorize:Contact", "Generate:SmallTalk"],
      ["Categorize:Contact", "Generate:RespectPrivacy"],
      ["Categorize:Contact", "Generate:ThankContact"],
      ["Retrieval:JobDetails", "Generate:JobDetailsAnswer"],
      ["Generate:JobDetailsAnswer", "Answer:Conversation"],
      ["Generate:SmallTalk", "Answer:Conversation"],
      ["Generate:ThankContact", "Answer:Conversation"],
      ["Generate:RespectPrivacy", "Answer:Conversation"],
    ],
    [{ name: "Setup", at: [0, 3], text: "Choose the knowledge base that holds the job description in \"Job description\" and \"Job details\", and write your own company, role and e-mail into the prologue and the prompts." }],
  ),
};

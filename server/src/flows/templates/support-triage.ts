import type { FlowTemplate } from "./flow-template";
import { generateParams, modelParams, retrievalParams, templateDsl } from "./template-graph";

/**
 * Cairn's own: a support desk's first line. Questions are answered from the help centre with citations; problem
 * reports become a ticket, and a Switch escalates the critical ones; billing and anything else get a fixed reply
 * (Message), so that they never depend on a model. It runs with the built-in models alone.
 */

export const supportTriage: FlowTemplate = {
  id: "support-triage",
  title: "flow.templates.support-triage.title",
  description: "flow.templates.support-triage.description",
  needs: ["knowledgeBase"],
  dsl: templateDsl(
    [
      { id: "begin", name: "Begin", at: [0, 1.5], params: { prologue: "Hi! I'm the support assistant. Ask me how something works, report a problem, or ask about billing." } },
      { id: "Answer:Interact", name: "Interact", at: [1, 1.5] },
      {
        id: "Categorize:Triage",
        name: "Triage",
        at: [2, 1.5],
        params: modelParams({
          message_history_window_size: 1,
          category_description: {
            problem: {
              description: "The user reports a problem: something is broken, fails, shows an error or behaves wrongly.",
              examples: "The export button does nothing.\nI get an error 500 when I log in.\nThe app crashes when I upload a PDF.\nSince yesterday nobody on our team can sign in.",
              to: "Generate:Ticket",
            },
            billing: {
              description: "The message is about invoices, payments, prices, plans or refunds.",
              examples: "Where can I find my invoice?\nI was charged twice.\nHow much is the team plan?\nCan I get a refund?",
              to: "Message:Billing",
            },
            question: {
              description: "A question about how the product works or how to do something with it.",
              examples: "How do I invite a colleague?\nCan I import a CSV file?\nWhat file types are supported?\nHow do I change my password?",
              to: "Retrieval:HelpCenter",
            },
            other: {
              description: "Anything else.",
              examples: "Hello\nThanks!\nWho are you?",
              to: "Message:Other",
            },
          },
        }),
      },
      { id: "Retrieval:HelpCenter", name: "Help centre", at: [3, 0], params: retrievalParams({ empty_response: "I found nothing about this in our help centre. Could you describe it differently?" }) },
      {
        id: "Generate:HelpAnswer",
        name: "Answer with citations",
        at: [4, 0],
        params: generateParams(
          'You are an intelligent assistant. Please summarize the content of the knowledge base to answer the question. Please list the data in the knowledge base and answer in detail. When all knowledge base content is irrelevant to the question, your answer must include the sentence "The answer you are looking for is not found in the knowledge base!" Answers need to consider chat history.\n      Here is the knowledge base:\n      {knowledge}\n      The above is the knowledge base.',
          { cite: true, parameters: { knowledge: "Retrieval:HelpCenter" } },
        ),
      },
      {
        id: "Generate:Ticket",
        name: "Write a ticket",
        at: [3, 1.3],
        params: generateParams(
          "You turn a user's problem report into a support ticket. Write exactly these lines:\nSummary: <one sentence>\nDetails: <what happens, what was expected, any error message>\nSeverity: critical (the product is unusable, data is lost, or many people are blocked) or normal (anything else)\n\nWrite nothing else.",
          { window: 4 },
        ),
      },
      {
        id: "Switch:Severity",
        name: "Critical?",
        at: [4, 1.3],
        params: { conditions: [{ logical_operator: "and", items: [{ cpn_id: "Generate:Ticket", operator: "contains", value: "Severity: critical" }], to: "Template:Escalated" }], end_cpn_id: "Template:Logged" },
      },
      {
        id: "Template:Escalated",
        name: "Escalated",
        at: [5, 0.9],
        params: { content: "I'm sorry about this — it looks urgent, so I've escalated it to our on-call engineers:\n\n{ticket}\n\nWe'll get back to you as soon as possible.", parameters: [{ key: "ticket", component_id: "Generate:Ticket" }] },
      },
      {
        id: "Template:Logged",
        name: "Logged",
        at: [5, 1.7],
        params: { content: "Thanks for the report! I've logged it for our support team:\n\n{ticket}\n\nIs there anything you'd like to add?", parameters: [{ key: "ticket", component_id: "Generate:Ticket" }] },
      },
      { id: "Message:Billing", name: "Billing", at: [3, 2.6], params: { messages: ["For invoices, payments and refunds, please write to billing@example.com with your account's e-mail address — our billing team answers within one working day."] } },
      { id: "Message:Other", name: "Anything else", at: [3, 3.4], params: { messages: ["I can answer questions about the product, log a problem, or point you to billing. What can I do for you?"] } },
    ],
    [
      ["begin", "Answer:Interact"],
      ["Answer:Interact", "Categorize:Triage"],
      ["Categorize:Triage", "Generate:Ticket"],
      ["Categorize:Triage", "Message:Billing"],
      ["Categorize:Triage", "Retrieval:HelpCenter"],
      ["Categorize:Triage", "Message:Other"],
      ["Retrieval:HelpCenter", "Generate:HelpAnswer"],
      ["Generate:Ticket", "Switch:Severity"],
      ["Switch:Severity", "Template:Escalated"],
      ["Switch:Severity", "Template:Logged"],
      ["Generate:HelpAnswer", "Answer:Interact"],
      ["Template:Escalated", "Answer:Interact"],
      ["Template:Logged", "Answer:Interact"],
      ["Message:Billing", "Answer:Interact"],
      ["Message:Other", "Answer:Interact"],
    ],
    [{ name: "Setup", at: [0, 3], text: "Choose your help centre's knowledge base in \"Help centre\", and write your own billing address in \"Billing\"." }],
  ),
};

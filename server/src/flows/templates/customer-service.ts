import type { FlowTemplate } from "./flow-template";
import { generateParams, modelParams, retrievalParams, templateDsl } from "./template-graph";

/**
 * RAGFlow's "Customer service": product questions are answered from the product's documentation (when it holds the
 * answer; otherwise the customer is asked for a way to be contacted), complaints are soothed, small talk is kept
 * friendly, and contact details are acknowledged.
 */

const SUPPORT = "You are a customer support agent of our company.";

export const customerService: FlowTemplate = {
  id: "customer-service",
  title: "flow.templates.customer-service.title",
  description: "flow.templates.customer-service.description",
  needs: ["knowledgeBase"],
  dsl: templateDsl(
    [
      { id: "begin", name: "Begin", at: [0, 1.5], params: { prologue: "Hi! How can I help you today?" } },
      { id: "Answer:Interact", name: "Interact", at: [1, 1.5] },
      {
        id: "Categorize:Request",
        name: "Request",
        at: [2, 1.5],
        params: modelParams({
          message_history_window_size: 8,
          category_description: {
            product_related: {
              description: "The question is about the product: how to use it, how it looks, how it works, an error it shows.",
              examples: "Why does it keep beeping?\nHow do I mount it on the wall?\nIt leaks, what should I do?\nError: cannot connect to the server\nHow do I reset it to factory settings?",
              to: "RewriteQuestion:Clarify",
            },
            complain: {
              description: "The customer complains, even angrily, about the product or the service, without saying what exactly is wrong.",
              examples: "This is so bad.\nIt's really terrible.\nCan't it just work for once?\nI can't stand it any more.",
              to: "Generate:Soothe",
            },
            contact: {
              description: "The message gives contact details: an e-mail address, a phone number, a chat handle.",
              examples: "My phone number is 555 0100\njane.doe@example.org\nMy Discord is jdoe_29384",
              to: "Message:ContactNoted",
            },
            casual: {
              description: "Casual chat, not about the product.",
              examples: "How are you doing?\nWhat is your name?\nAre you a robot?\nWhat's the weather like?",
              to: "Generate:Casual",
            },
          },
        }),
      },
      { id: "RewriteQuestion:Clarify", name: "Clarify question", at: [3, 0], params: modelParams({ loop: 1 }) },
      { id: "Retrieval:Manual", name: "Product documentation", at: [4, 0], params: retrievalParams({ top_n: 6 }) },
      { id: "Relevant:Answerable", name: "Answer found?", at: [5, 0], params: modelParams({ temperature: 0.02, yes: "Generate:Answer", no: "Generate:AskContact" }) },
      {
        id: "Generate:Answer",
        name: "Answer from the documentation",
        at: [6, -0.5],
        params: generateParams(
          `${SUPPORT} Answer the customer's question from the product documentation below, taking the conversation into account. When nothing in it answers the question, say \"I could not find the answer to this in our documentation.\"\n\nThe documentation:\n{input}`,
          { cite: true, temperature: 0.02 },
        ),
      },
      {
        id: "Generate:AskContact",
        name: "Ask for contact",
        at: [6, 0.5],
        params: generateParams(`${SUPPORT} You cannot answer the customer's question yourself. Ask for a way to reach them — e-mail, phone number or a chat handle — so that a product expert can contact them. Do not ask for it twice.`, { temperature: 0.9 }),
      },
      {
        id: "Generate:Soothe",
        name: "Soothe",
        at: [4, 1.5],
        params: generateParams(`${SUPPORT} The customer complains about the product but does not say what exactly is wrong. First soothe them, kindly and patiently, then ask what the problem is.`, { temperature: 0.9 }),
      },
      {
        id: "Message:ContactNoted",
        name: "Contact noted",
        at: [4, 2.5],
        params: { messages: ["Thank you, I've written that down. Our expert will get in touch soon. Anything else I can do for you?", "Got it, thanks! Is there anything else I can help you with?"] },
      },
      { id: "Generate:Casual", name: "Casual chat", at: [4, 3.5], params: generateParams(`${SUPPORT} The customer wants a casual chat rather than help with the product. Be friendly, funny and caring.`, { temperature: 0.9 }) },
    ],
    [
      ["begin", "Answer:Interact"],
      ["Answer:Interact", "Categorize:Request"],
      ["Categorize:Request", "RewriteQuestion:Clarify"],
      ["Categorize:Request", "Generate:Soothe"],
      ["Categorize:Request", "Message:ContactNoted"],
      ["Categorize:Request", "Generate:Casual"],
      ["RewriteQuestion:Clarify", "Retrieval:Manual"],
      ["Retrieval:Manual", "Relevant:Answerable"],
      ["Relevant:Answerable", "Generate:Answer"],
      ["Relevant:Answerable", "Generate:AskContact"],
      ["Generate:Answer", "Answer:Interact"],
      ["Generate:AskContact", "Answer:Interact"],
      ["Generate:Soothe", "Answer:Interact"],
      ["Message:ContactNoted", "Answer:Interact"],
      ["Generate:Casual", "Answer:Interact"],
    ],
    [{ name: "Setup", at: [0, 3], text: "Choose the knowledge base of your product's documentation in \"Product documentation\"." }],
  ),
};

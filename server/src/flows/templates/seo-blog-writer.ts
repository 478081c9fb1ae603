import type { FlowTemplate } from "./flow-template";
import { generateParams, templateDsl } from "./template-graph";

/**
 * RAGFlow's "SEO Blog Generator", searching DuckDuckGo where RAGFlow's searched Baidu: from a title or from keywords
 * (a Switch picks the way: without a title, one is written from a search for the keywords), it finds a search
 * phrase, researches it, outlines the article, writes its introduction and body, and puts them together with a
 * Template. It runs once on Begin's inputs.
 */

const WRITER =
  'You are an SEO expert who writes in a direct, practical, educational style — factual, not storytelling — explaining to {audience} the "how", the "what" and the "why".\n- Write at a sixth-grade reading level.\n- Output markdown only.\n- Use the active voice and the present tense; avoid pompous words such as "unravel" or "dig deeper".\n- Do not narrate.';
const IN_LANGUAGE = '- Write in the language of "{keywords_0} {title_0}".';
const ARTICLE = { audience: "begin@audience", title_0: "begin@title", title: "Generate:Title", keywords_0: "begin@keywords", keywords: "Generate:Keywords", outline: "Generate:Outline", brands_to_avoid: "begin@brands_to_avoid" };

export const seoBlogWriter: FlowTemplate = {
  id: "seo-blog-writer",
  title: "flow.templates.seo-blog-writer.title",
  description: "flow.templates.seo-blog-writer.description",
  needs: ["internet"],
  dsl: templateDsl(
    [
      {
        id: "begin",
        name: "Begin",
        at: [0, 1],
        params: {
          prologue: "",
          query: [
            { key: "title", name: "Title", type: "line", optional: true, value: "" },
            { key: "keywords", name: "Keywords", type: "line", optional: true, value: "" },
            { key: "audience", name: "Audience", type: "line", optional: true, value: "" },
            { key: "brands_to_avoid", name: "Brands to avoid", type: "line", optional: true, value: "" },
          ],
        },
      },
      {
        id: "Switch:HasTitle",
        name: "No title?",
        at: [1, 1],
        params: { conditions: [{ logical_operator: "and", items: [{ cpn_id: "begin@title", operator: "empty" }], to: "DuckDuckGo:KeywordSearch" }], end_cpn_id: "Generate:Keywords" },
      },
      { id: "DuckDuckGo:KeywordSearch", name: "Search the keywords", at: [2, 0], params: { top_n: 10, channel: "text", query: [{ type: "reference", component_id: "begin@keywords" }] } },
      {
        id: "Generate:Title",
        name: "Write a title",
        at: [3, 0],
        params: generateParams(
          'Role: You are an SEO expert and an expert of the subject. Write an SEO article title for the keywords "{keywords}", in the light of these search results:\n{search}\n\nGood titles rank high because they:\n1. contain the exact keyword or a close variant, so that search engines see their relevance;\n2. are short and direct;\n3. promise to define or explain what people searching for "{keywords}" look for;\n4. take their own angle on the topic.\n\nFollowing these principles, write a better title than the results above — do not copy them. Avoid words such as "master", "comprehensive", "discover" or "reveal"; use the active voice and the present tense, no gerunds. Answer with the title only.',
          { window: 0, parameters: { search: "DuckDuckGo:KeywordSearch", keywords: "begin@keywords" } },
        ),
      },
      {
        id: "Generate:Keywords",
        name: "Find keywords",
        at: [2.5, 2],
        params: generateParams("I'm researching an article called {title}. What relevant, high-traffic phrase should I type into a search engine to find articles like it? Answer with the phrase only, with no quotes, colons or other symbols.", { window: 0, parameters: { title: "begin@title" } }),
      },
      {
        id: "Generate:SearchPhrase",
        name: "Search phrase",
        at: [4, 1],
        params: generateParams(
          'I want a search phrase that finds authoritative information for my article "{title_0} {title} {keywords_0} {keywords}" for {audience}. Answer with a search phrase of five words or fewer that gives a good overview of the topic, and include any word you are unfamiliar with.',
          { window: 0, parameters: { title_0: "begin@title", title: "Generate:Title", keywords_0: "begin@keywords", keywords: "Generate:Keywords", audience: "begin@audience" } },
        ),
      },
      { id: "DuckDuckGo:Research", name: "Research", at: [5, 1], params: { top_n: 10, channel: "text" } },
      {
        id: "Generate:Outline",
        name: "Outline",
        at: [6, 1],
        params: generateParams(
          'I\'m an expert blogger. Here is the research I did for the blog post "{title_0} {title}":\n{search_res}\n\nStudy it in depth.\n\nArticle title: {title_0} {title}\nTarget keywords: {keywords_0} {keywords}\nAudience: {audience}\nBrands to leave out: {brands_to_avoid}\n\nWrite a detailed outline of the post, in chapters:\n- Give the specific points and details each chapter will make, not generalities; explain each point rather than saying "discuss how".\n- Use the links above as references where you can.\n- Include nothing you know to be false; define the key terms; stay away from very controversial topics.\n- The introduction gives the background the rest of the article needs.\n- Answer with a JSON array of strings only, one complete chapter per item: ["Chapter 1 with all its points", "Chapter 2 with all its points", ...].\n' +
            IN_LANGUAGE,
          { window: 0, max_tokens: 2048, parameters: { title_0: "begin@title", title: "Generate:Title", keywords_0: "begin@keywords", keywords: "Generate:Keywords", audience: "begin@audience", brands_to_avoid: "begin@brands_to_avoid", search_res: "DuckDuckGo:Research" } },
        ),
      },
      {
        id: "Generate:Introduction",
        name: "Introduction",
        at: [7, 0.4],
        params: generateParams(
          `${WRITER}\n- Introduce the post in 3 to 5 sentences, from the outline, without its title.\n- No conclusion or summary.\n- No links, and no mention of competing brands (leave out {brands_to_avoid}).\n${IN_LANGUAGE}\n\n<article_outline>\n{outline}\n</article_outline>\n\n<article_introduction>`,
          { window: 0, parameters: ARTICLE },
        ),
      },
      {
        id: "Generate:Body",
        name: "Body",
        at: [7, 1.6],
        params: generateParams(
          `${WRITER}\n- Write the body of the article on {title_0}{title} ({keywords_0}{keywords}) from the outline: every chapter except the introduction, each under an h2 heading, no h3.\n- Bullet points, numbered lists and bold text are welcome where they help.\n- Move naturally from one chapter to the next; do not repeat sentences or sentence patterns.\n- Use the references and data points of the outline to make the article worth reading.\n- No mention of competing brands (leave out {brands_to_avoid}).\n${IN_LANGUAGE}\n\n<article_outline>\n{outline}\n</article_outline>\n\n<article_body>`,
          { window: 0, max_tokens: 4096, parameters: ARTICLE },
        ),
      },
      {
        id: "Template:Article",
        name: "Article",
        at: [8, 1],
        params: {
          content: "## {title_0}{title}\n\n{introduction}\n\n{body}",
          parameters: [
            { key: "title_0", component_id: "begin@title" },
            { key: "title", component_id: "Generate:Title" },
            { key: "introduction", component_id: "Generate:Introduction" },
            { key: "body", component_id: "Generate:Body" },
          ],
        },
      },
      { id: "Answer:Result", name: "Blog post", at: [9, 1] },
    ],
    [
      ["begin", "Switch:HasTitle"],
      ["Switch:HasTitle", "DuckDuckGo:KeywordSearch"],
      ["Switch:HasTitle", "Generate:Keywords"],
      ["DuckDuckGo:KeywordSearch", "Generate:Title"],
      ["Generate:Title", "Generate:SearchPhrase"],
      ["Generate:Keywords", "Generate:SearchPhrase"],
      ["Generate:SearchPhrase", "DuckDuckGo:Research"],
      ["DuckDuckGo:Research", "Generate:Outline"],
      ["Generate:Outline", "Generate:Introduction"],
      ["Generate:Outline", "Generate:Body"],
      ["Generate:Introduction", "Template:Article"],
      ["Generate:Body", "Template:Article"],
      ["Template:Article", "Answer:Result"],
    ],
    [{ name: "How it works", at: [1, 2.3], text: "Give a title, or keywords to write one from, and the audience; \"Brands to avoid\" keeps competitors out of the post. DuckDuckGo needs internet access and no key." }],
  ),
};

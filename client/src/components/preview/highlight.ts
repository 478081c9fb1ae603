import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

/**
 * highlight.js's core with only the languages of the text types Cairn parses (the server names them:
 * ingestion/preview/makers/text.ts); the full build would add a megabyte to the page.
 */
const LANGUAGES = { bash, c, cpp, csharp, go, ini, java, javascript, json, kotlin, php, python, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Beyond this many characters the text is shown plain: highlighting a megabyte holds the page for seconds. */
export const HIGHLIGHT_LIMIT = 200_000;

/** The text as highlighted HTML (highlight.js escapes it), or null when it is shown plain: no language, an unknown one, or too long. */
export function highlighted(text: string, language: string | null | undefined): string | null {
  if (!language || !hljs.getLanguage(language) || text.length > HIGHLIGHT_LIMIT) return null;
  return hljs.highlight(text, { language, ignoreIllegals: true }).value;
}

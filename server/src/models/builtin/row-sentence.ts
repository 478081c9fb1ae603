import type { AnswerLanguage } from "./fixed-sentences";

/**
 * A table row, as the General method writes it into a chunk ("sku: GT-3; product: Glacier 3-season tent;
 * price: 4,999 NOK" — RAGFlow's "col: value; col: value" lines), told as a sentence: "The Glacier
 * 3-season tent costs 4,999 NOK." The row is the quote; the sentence only arranges its own words around
 * its column names, so the extractive model still writes nothing the knowledge does not say.
 */

export interface RowField {
  name: string;
  value: string;
}

const FIELD = /^([^:：;；]{1,60}?)\s*[:：]\s*(\S.*)$/;

/** The fields of a "col: value; col: value" line, or null when the line is not one (fewer than two fields). */
export function rowFields(line: string): RowField[] | null {
  const parts = line.split(/\s*[;；]\s+|\s*；\s*/).filter((p) => p.trim() !== "");
  if (parts.length < 2) return null;
  const fields: RowField[] = [];
  for (const part of parts) {
    const match = FIELD.exec(part.trim());
    if (!match) return null;
    fields.push({ name: match[1].trim(), value: match[2].trim() });
  }
  return fields;
}

/** Columns that name what a row is about. */
const NAMING_COLUMN = /^(?:name|full name|product|product name|item|item name|title|model|service|plan|course|book|company|city|country|employee|person|contact|名称|名字|姓名|产品|產品|商品|项目|項目|标题|標題|nama|produk|nombre|producto|título)$/i;
/** Columns whose names are persons' or places' own: no article before them ("Alice Smith", not "the Alice Smith"). */
const PROPER_COLUMN = /^(?:name|full name|employee|person|contact|company|city|country|姓名|名字|nama|nombre)$/i;
const PRICE_COLUMN = /^(?:price|cost|unit price|price \(.*\)|cost \(.*\)|价格|價格|售价|售價|harga|precio)$/i;
/** A question about a price, whichever words it uses. */
const PRICE_QUESTION = /\b(?:cost|costs|price|priced|how much|expensive|cheap|harga|precio|cuesta|cuánto)\b|多少钱|多少錢|价格|價格|售价|售價/i;
/** A code or a number, which names a row poorly ("GT-3", "42"). */
const CODE = /^[\p{Lu}\p{N}][\p{Lu}\p{N}\-_./#]*$|^[\d\s.,%+-]+$/u;

function subjectOf(fields: RowField[]): RowField {
  return fields.find((f) => NAMING_COLUMN.test(f.name)) ?? fields.find((f) => /\p{L}/u.test(f.value) && !CODE.test(f.value)) ?? fields[0];
}

export interface RowQuestion {
  text: string;
  language: AnswerLanguage;
  /** Whether a column is one the question asks about ("price" for "How much does … cost?"). */
  asksAbout(columnName: string): boolean;
  /** A number, a date or an amount is asked for ("how much", "when"). */
  wantsNumber: boolean;
  /** Whether the question already names this value (the row was found by it: it is not the answer). */
  names(value: string): boolean;
}

/** The fields a question asks for: the columns it names, else those holding a number when it asks for one, else all. */
function askedFields(fields: RowField[], subject: RowField, question: RowQuestion): RowField[] {
  const others = fields.filter((f) => f !== subject);
  const named = others.filter((f) => question.asksAbout(f.name) || (PRICE_COLUMN.test(f.name) && PRICE_QUESTION.test(question.text)));
  if (named.length > 0) return named;
  const unnamed = others.filter((f) => !question.names(f.value));
  const numbers = question.wantsNumber ? unnamed.filter((f) => /\d/.test(f.value)) : [];
  return numbers.length > 0 ? numbers : unnamed.length > 0 ? unnamed : others;
}

function englishSentence(subject: RowField, asked: RowField[]): string {
  const who = PROPER_COLUMN.test(subject.name) ? subject.value : `the ${subject.value}`;
  const clauses = asked.map((f, i) => {
    const name = f.name.toLowerCase();
    if (PRICE_COLUMN.test(f.name)) return `${i === 0 ? who : "it"} costs ${f.value}`;
    return i === 0 ? `the ${name} of ${who} is ${f.value}` : `its ${name} is ${f.value}`;
  });
  const text = clauses.length > 1 ? `${clauses.slice(0, -1).join(", ")} and ${clauses.at(-1)}` : clauses[0];
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

const SENTENCE: Record<Exclude<AnswerLanguage, "en">, (subject: string, asked: RowField[]) => string> = {
  zh: (subject, asked) => `${subject}的${asked.map((f) => `${f.name}是${f.value}`).join("，")}。`,
  "zh-TRADITIONAL": (subject, asked) => `${subject}的${asked.map((f) => `${f.name}是${f.value}`).join("，")}。`,
  es: (subject, asked) => `${asked.map((f) => `${f.name} de ${subject} es ${f.value}`).join("; ")}.`.replace(/^\p{Ll}/u, (c) => c.toUpperCase()),
  id: (subject, asked) => `${asked.map((f) => `${f.name} ${subject} adalah ${f.value}`).join("; ")}.`.replace(/^\p{Ll}/u, (c) => c.toUpperCase()),
};

/** The row as a sentence answering the question, or null when the line is no table row. */
export function rowSentence(line: string, question: RowQuestion): string | null {
  const fields = rowFields(line);
  if (!fields) return null;
  const subject = subjectOf(fields);
  const asked = askedFields(fields, subject, question);
  if (asked.length === 0) return null;
  return question.language === "en" ? englishSentence(subject, asked) : SENTENCE[question.language](subject.value, asked);
}

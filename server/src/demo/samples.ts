import fs from "node:fs/promises";
import path from "node:path";

/**
 * The demo's sample documents: short texts written for Cairn and dedicated to the public domain (CC0, see
 * samples/README.md), one of each kind the General method reads differently — Markdown with a table, HTML with a
 * list, plain text with numbered steps, and a CSV sheet. The build copies the folder beside the compiled code.
 */
export const SAMPLE_FILES = ["cairn-guide.md", "cairns.html", "sourdough.txt", "planets.csv"] as const;

/**
 * Questions the samples answer, one per document, shown on the demo page and as the assistant's opener. They stay
 * in English, the samples' language: the built-in models match words, and a translated question would find nothing.
 */
export const SAMPLE_QUESTIONS = [
  "Why do hikers build cairns?",
  "How many moons does Mars have?",
  "How long should sourdough dough rest in the refrigerator?",
  "How large can an uploaded file be?",
] as const;

const SAMPLES_DIRECTORY = path.join(__dirname, "samples");

export async function readSamples(): Promise<{ name: string; data: Buffer }[]> {
  return Promise.all(SAMPLE_FILES.map(async (name) => ({ name, data: await fs.readFile(path.join(SAMPLES_DIRECTORY, name)) })));
}

import fs from "node:fs";
import path from "node:path";
import { PRIVATE_DIRECTORY_MODE } from "../../platform/private-files";
import type { ImageInput, Img2TxtModel, TextResult } from "../model-types";
import { countTokens } from "../tokens";
import { modelCacheDirectory } from "./lexicon";

/**
 * "tesseract-ocr": offline OCR with tesseract.js and the traineddata of the @tesseract.js-data packages
 * (English, Simplified and Traditional Chinese; LSTM "best_int" models). tesseract.js reads every
 * language from one `langPath`, while each package keeps its own folder: the files are linked (or copied)
 * into one folder of the model cache first. Without a local `langPath` tesseract.js would try its CDN.
 *
 * Each Chinese model writes its own script whatever it reads (chi_sim turns 檢索 into 检索), so they are
 * not loaded together: a page is read with English + Simplified Chinese, and when Chinese appears, again
 * with English + Traditional Chinese; the reading Tesseract is more confident of wins (a tie goes to
 * Simplified). A `language` hint (zh-TW, zh-Hant, zh-TRADITIONAL…) goes straight to Traditional.
 *
 * A worker runs one job at a time: each of the two serves its calls in turn. They start on first use
 * (about a second) and stay until `closeTesseract()` — which server shutdown and tests call.
 */

export const OCR_LANGUAGES = ["eng", "chi_sim", "chi_tra"] as const;

type TesseractWorker = Awaited<ReturnType<typeof import("tesseract.js").createWorker>>;
type Script = "simplified" | "traditional";

interface Reader {
  worker: Promise<TesseractWorker>;
  /** The end of the last job queued on this worker. */
  queue: Promise<unknown>;
}

const readers = new Map<Script, Reader>();

function traineddataFile(language: string): string {
  const packageJson = require.resolve(`@tesseract.js-data/${language}/package.json`);
  return path.join(path.dirname(packageJson), "4.0.0_best_int", `${language}.traineddata.gz`);
}

/** A folder holding `<lang>.traineddata.gz` for every language, as tesseract.js wants it. */
async function languageFolder(): Promise<string> {
  const folder = path.join(modelCacheDirectory(), "tessdata");
  await fs.promises.mkdir(folder, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  for (const language of OCR_LANGUAGES) {
    const target = path.join(folder, `${language}.traineddata.gz`);
    const source = traineddataFile(language);
    const current = await fs.promises.stat(target).catch(() => null);
    const original = await fs.promises.stat(source);
    if (current && current.size === original.size) continue;
    await fs.promises.rm(target, { force: true });
    const partial = `${target}.${process.pid}.tmp`;
    try {
      await fs.promises.symlink(source, partial);
    } catch {
      await fs.promises.copyFile(source, partial);
    }
    await fs.promises.rename(partial, target);
  }
  return folder;
}

function reader(script: Script): Reader {
  let found = readers.get(script);
  if (!found) {
    const worker = (async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { createWorker, OEM } = require("tesseract.js") as typeof import("tesseract.js");
      const langPath = await languageFolder();
      // Without an errorHandler, tesseract.js rethrows a failed job's error from its message listener, where
      // nothing can catch it and the process ends; the job's own promise is rejected all the same.
      return createWorker(["eng", script === "simplified" ? "chi_sim" : "chi_tra"], OEM.LSTM_ONLY, {
        langPath,
        gzip: true,
        cacheMethod: "none",
        errorHandler: () => undefined,
      });
    })();
    found = { worker, queue: Promise.resolve() };
    readers.set(script, found);
    worker.catch(() => readers.delete(script));
  }
  return found;
}

async function read(script: Script, image: Buffer): Promise<{ text: string; confidence: number }> {
  const target = reader(script);
  const job = target.queue.then(async () => {
    const { data } = await (await target.worker).recognize(image);
    return { text: data.text, confidence: data.confidence };
  });
  target.queue = job.catch(() => undefined);
  return job;
}

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const TRADITIONAL_HINT = /^zh[-_](?:tw|hk|mo|hant|traditional)/i;

/** Tesseract separates every Chinese character by a space; Chinese text has none between its characters. */
export function joinCjkSpacing(text: string): string {
  const cjk = "\\u3000-\\u303f\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef";
  return text.replace(new RegExp(`(?<=[${cjk}])[ \\t]+(?=[${cjk}])`, "g"), "");
}

/** Stops the workers that were started; a later call starts new ones. */
export async function closeTesseract(): Promise<void> {
  const started = [...readers.values()];
  readers.clear();
  await Promise.all(
    started.map(async ({ worker, queue }) => {
      await queue.catch(() => undefined);
      const running = await worker.catch(() => null);
      await running?.terminate();
    }),
  );
}

export class TesseractOcr implements Img2TxtModel {
  async describe(image: ImageInput, options?: { prompt?: string; language?: string; signal?: AbortSignal }): Promise<TextResult> {
    options?.signal?.throwIfAborted();
    let best = await read(TRADITIONAL_HINT.test(options?.language ?? "") ? "traditional" : "simplified", image.data);
    if (!TRADITIONAL_HINT.test(options?.language ?? "") && CJK.test(best.text)) {
      options?.signal?.throwIfAborted();
      const traditional = await read("traditional", image.data);
      if (traditional.confidence > best.confidence) best = traditional;
    }
    const text = joinCjkSpacing(best.text)
      .replace(/[ \t]+\n/g, "\n")
      .trim();
    const tokens = countTokens(text);
    return { text, usage: { promptTokens: 0, completionTokens: tokens, totalTokens: tokens } };
  }
}

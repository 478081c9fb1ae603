import { expect, test } from "@jest/globals";
import type { TFunction } from "i18next";
import { logLines, logText, say } from "./parseLog";

/** The parse log as the reader sees it: messages said in their language, older plain lines as they were written. */

/** Says a message as "key(param=value, …)", enough to see what was asked for. */
const fakeT = ((key: string, params: Record<string, unknown> = {}) =>
  `${key}(${Object.entries(params).map(([name, value]) => `${name}=${String(value)}`).join(", ")})`) as unknown as TFunction;

test("a parameter that is itself a message is said first", () => {
  const message = { messageKey: "parseLog.failed", params: { reason: { messageKey: "errors.parsing.pdfEncrypted", params: {} }, page: 3 } };
  expect(say(fakeT, message)).toBe("parseLog.failed(reason=errors.parsing.pdfEncrypted(), page=3)");
});

test("lines written before the log kept message keys are shown as written, the rest as messages", () => {
  const document = {
    progressMsg: "08:00:01 Task received.\nno stamp here\n\n08:00:05 Chunked 10.\n08:00:09 Done.",
    progressLog: [
      { at: "08:00:05", messageKey: "parseLog.chunked", params: { count: 10 } },
      { at: "08:00:09", messageKey: "parseLog.done", params: {} },
    ],
  };
  expect(logLines(fakeT, document)).toEqual([
    { at: "08:00:01", text: "Task received." },
    { at: "", text: "no stamp here" },
    { at: "08:00:05", text: "parseLog.chunked(count=10)" },
    { at: "08:00:09", text: "parseLog.done()" },
  ]);
});

test("the whole log reads one line per entry, each with its stamp", () => {
  expect(logText([{ at: "08:00:01", text: "Task received." }, { at: "", text: "no stamp here" }])).toBe("08:00:01 Task received.\nno stamp here");
});

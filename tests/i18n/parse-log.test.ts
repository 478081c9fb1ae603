import fs from "node:fs";
import path from "node:path";
import i18next from "i18next";
import { appendLogLine, logMessage, type ParseLog } from "../../server/src/ingestion/parse-log";
import { logLines } from "../../client/src/pages/knowledge/dataset/parseLog";

/** A parse log as the server writes it, read by the client in the reader's language. */

const locale = (code: string) => JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../locales", `${code}.json`), "utf8"));

async function reader(language: string) {
  const instance = i18next.createInstance();
  await instance.init({ lng: language, fallbackLng: "en", resources: { en: { translation: locale("en") }, [language]: { translation: locale(language) } }, interpolation: { escapeValue: false } });
  return instance.t;
}

function logOf(...messages: ReturnType<typeof logMessage>[]): ParseLog {
  const at = new Date("2026-01-01T08:30:05Z");
  return messages.reduce<ParseLog>((log, message) => appendLogLine(log, message, at), { progressMsg: "", progressLog: [] });
}

test("a Chinese reader reads the parse log in Chinese, while the English text stays for API clients", async () => {
  const log = logOf(
    logMessage("parseLog.received"),
    logMessage("parseLog.chunked", { count: 10, method: logMessage("chunkMethods.naive.label") }),
    logMessage("parseLog.failed", { reason: logMessage("errors.parsing.pdfEncrypted") }),
    logMessage("parseLog.done", { seconds: "1.25" }),
  );
  expect(logLines(await reader("zh"), log)).toEqual([
    { at: "08:30:05", text: "已接收任务。" },
    { at: "08:30:05", text: "已按“通用”方法切分出 10 个分块。" },
    { at: "08:30:05", text: "[错误] 该 PDF 已用密码加密，无法读取" },
    { at: "08:30:05", text: "任务完成（1.25 秒）" },
  ]);
  expect(logLines(await reader("zh-TRADITIONAL"), log)[1].text).toBe("已按「通用」方法切分出 10 個分塊。");
  expect(log.progressMsg.split("\n")).toEqual([
    "08:30:05 Task has been received.",
    "08:30:05 Made 10 chunks with the General method.",
    "08:30:05 [ERROR] The PDF is encrypted with a password: it cannot be read",
    "08:30:05 Task done (1.25s)",
  ]);
});

test("lines written before they had keys are shown as they were written, the later ones in the reader's language", async () => {
  const old = { progressMsg: "10:00:00 Task has been received.\n10:00:02 Task done (2.00s)", progressLog: [] };
  expect(logLines(await reader("zh"), old)).toEqual([
    { at: "10:00:00", text: "Task has been received." },
    { at: "10:00:02", text: "Task done (2.00s)" },
  ]);
  const cancelledAfterAnUpgrade = appendLogLine({ progressMsg: "10:00:00 Task has been received.", progressLog: [] }, logMessage("parseLog.cancelled"), new Date("2026-01-01T10:00:09Z"));
  expect(logLines(await reader("zh"), cancelledAfterAnUpgrade)).toEqual([
    { at: "10:00:00", text: "Task has been received." },
    { at: "10:00:09", text: "已被用户取消。" },
  ]);
});

test("a message with a line break (a model's error) stays one line of the log, so both forms stay aligned", async () => {
  const log = logOf(logMessage("parseLog.failed", { reason: "upstream said:\nquota exceeded" }), logMessage("parseLog.cancelled"));
  expect(log.progressMsg.split("\n")).toEqual(["08:30:05 [ERROR] upstream said: quota exceeded", "08:30:05 Cancelled by the user."]);
  expect(logLines(await reader("zh"), log).map((line) => line.text)).toEqual(["[错误] upstream said:\nquota exceeded", "已被用户取消。"]);
});

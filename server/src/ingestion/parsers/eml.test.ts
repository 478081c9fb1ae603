import { englishText } from "../parse-log";
import { EML_ATTACHMENT, EML_SUBJECT, parserContext, sampleEml } from "../testing/sample-files";
import { ParseError } from "../types";
import { parserNamed } from "./registry";

const emlParser = parserNamed("eml")!;

describe("the e-mail parser", () => {
  it("reads the decoded subject as the title, the envelope, the quoted-printable body and the attachment with its own parser", async () => {
    const document = await emlParser.parse(await sampleEml(), parserContext("meeting.eml"));
    expect(document.title).toBe(EML_SUBJECT);
    expect(document.blocks).toEqual([
      { kind: "paragraph", text: `From: 张伟 <zhang.wei@example.com>\nTo: Team <team@example.com>\nDate: Mon, 03 Mar 2025 09:30:00 +0800\nSubject: ${EML_SUBJECT}` },
      { kind: "paragraph", text: "各位同事：" },
      { kind: "paragraph", text: "周五下午三点在三楼会议室讨论检索增强生成的上线计划。" },
      { kind: "paragraph", text: "Please bring your laptop." },
    ]);
    expect(document.attachments).toEqual([
      { fileName: "agenda.txt", document: { blocks: EML_ATTACHMENT.split("\n\n").map((text) => ({ kind: "paragraph", text })), notes: [] } },
    ]);
    expect(document.notes).toEqual([]);
  });

  it("reads an HTML-only body, and notes attachments it cannot read", async () => {
    const message = [
      "From: a@example.com",
      "Subject: Report",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "--b",
      "Content-Type: text/html; charset=UTF-8",
      "",
      "<h1>Weekly report</h1><p>All <b>green</b>.</p>",
      "--b",
      'Content-Type: application/zip; name="logs.zip"',
      'Content-Disposition: attachment; filename="logs.zip"',
      "Content-Transfer-Encoding: base64",
      "",
      "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==",
      "--b--",
      "",
    ].join("\r\n");
    const document = await emlParser.parse(Buffer.from(message), parserContext("report.eml"));
    expect(document.blocks.slice(1)).toEqual([
      { kind: "heading", level: 1, text: "Weekly report" },
      { kind: "paragraph", text: "All green." },
    ]);
    expect(document.attachments).toEqual([]);
    expect(document.notes.map(englishText)).toEqual(["Attachment logs.zip was not read: no parser for .zip files"]);
  });

  it("refuses a file without any mail header", async () => {
    await expect(emlParser.parse(Buffer.from("\r\n\r\njust a body"), parserContext("empty.eml"))).rejects.toThrow(ParseError.because("errors.parsing.emailInvalid"));
  });
});

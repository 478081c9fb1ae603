import { logMessage, type LogMessage } from "../parse-log";
import PostalMime from "postal-mime";
import { fileExtension } from "../file-types";
import type { Block, FileParser, ParsedDocument } from "../types";
import { ParseError } from "../types";
import { htmlBlocks } from "./html-blocks";
import { paragraphsOf } from "./plain-text";

export function addresses(list: PostalMime.Address[] | undefined): string {
  return (list ?? [])
    .map((address) => (address.group ? `${address.name}: ${addresses(address.group)}` : address.name ? `${address.name} <${address.address}>` : address.address))
    .join(", ");
}

/**
 * E-mail (RFC 822/MIME): the envelope as a paragraph, the body (plain text, else HTML), and each attachment parsed
 * by its own parser, which `attachmentParser` finds (the registry's lookup, handed in).
 */
export const emailParser = (attachmentParser: (fileName: string) => FileParser | undefined): FileParser => ({
  name: "eml",
  extensions: ["eml"],
  async parse(data, context) {
    let email: PostalMime.Email;
    try {
      email = await PostalMime.parse(data, { attachmentEncoding: "arraybuffer" });
    } catch (error) {
      throw ParseError.because("errors.parsing.emailUnreadable", { reason: (error as Error).message });
    }
    if (email.headers.length === 0) throw ParseError.because("errors.parsing.emailInvalid");
    const header = (key: string) => email.headers.find((line) => line.key === key)?.value;
    const envelope = [
      ["From", addresses(email.from ? [email.from] : [])],
      ["To", addresses(email.to)],
      ["Cc", addresses(email.cc)],
      ["Date", header("date") ?? ""],
      ["Subject", email.subject ?? ""],
    ]
      .filter(([, value]) => value)
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n");
    const blocks: Block[] = envelope ? [{ kind: "paragraph", text: envelope }] : [];
    if (email.text?.trim()) for (const text of paragraphsOf(email.text)) blocks.push({ kind: "paragraph", text });
    else if (email.html) for (const block of htmlBlocks(email.html).blocks) blocks.push(block);

    const notes: LogMessage[] = [];
    const attachments: { fileName: string; document: ParsedDocument }[] = [];
    for (const attachment of email.attachments) {
      if (attachment.related || !attachment.filename) continue;
      const fileName = attachment.filename;
      const parser = attachmentParser(fileName);
      if (!parser) {
        notes.push(logMessage("parseLog.attachmentNoParser", { file: fileName, suffix: fileExtension(fileName) }));
        continue;
      }
      context.signal.throwIfAborted();
      const content = typeof attachment.content === "string" ? Buffer.from(attachment.content) : Buffer.from(attachment.content as ArrayBuffer);
      try {
        const document = await parser.parse(content, { ...context, fileName, pages: undefined, progress: () => undefined });
        attachments.push({ fileName, document });
      } catch (error) {
        if (!(error instanceof ParseError)) throw error;
        notes.push(logMessage("parseLog.attachmentUnread", { file: fileName, reason: error.reason }));
      }
    }
    return { title: email.subject || undefined, blocks, attachments, notes };
  },
});

import PostalMime from "postal-mime";
import { addresses } from "../../parsers/eml";
import { ParseError } from "../../types";
import { PreviewKind } from "../preview";
import { PREVIEW_LIMITS } from "../limits";
import { cutHtml } from "../cut-html";
import { cut, type PreviewMaker } from "../maker";
import { sanitizeHtml } from "../sanitize-html";

/** E-mail (RFC 822/MIME): its envelope, its body (sanitised HTML, else the text) and the names of its attachments. */
export const emailPreview: PreviewMaker = {
  name: "email",
  extensions: ["eml"],
  async make(bytes, fileName) {
    let email: PostalMime.Email;
    try {
      email = await PostalMime.parse(bytes, { attachmentEncoding: "arraybuffer" });
    } catch (error) {
      throw ParseError.because("errors.parsing.emailUnreadable", { reason: (error as Error).message });
    }
    if (email.headers.length === 0) throw ParseError.because("errors.parsing.emailInvalid");
    const orNull = (text: string | undefined) => text?.trim() || null;
    const html = email.html ? cutHtml(email.html, PREVIEW_LIMITS.htmlCharacters) : null;
    const text = !html && email.text ? cut(email.text, PREVIEW_LIMITS.textCharacters) : null;
    return {
      kind: PreviewKind.email,
      fileName,
      email: {
        from: orNull(addresses(email.from ? [email.from] : [])),
        to: orNull(addresses(email.to)),
        cc: orNull(addresses(email.cc)),
        subject: orNull(email.subject),
        date: orNull(email.headers.find((line) => line.key === "date")?.value),
        html: html ? sanitizeHtml(html.html) : null,
        text: text?.text ?? null,
        // pictures of the body itself are not attachments
        attachments: email.attachments.filter((attachment) => !attachment.related || attachment.filename).map((attachment) => attachment.filename || attachment.mimeType),
      },
      truncated: html?.truncated ?? text?.truncated ?? false,
    };
  },
};

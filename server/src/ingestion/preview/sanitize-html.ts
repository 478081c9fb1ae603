import { Parser } from "htmlparser2";

/**
 * HTML from a file (a DOCX through mammoth, an e-mail's body) made safe to put into the page: an allow-list of
 * elements and of attributes per element, so that scripts, styles, frames, forms, event attributes
 * (`onerror`, `onclick`…) and `javascript:` or remote URLs never pass. The text is escaped again on the way out,
 * and the output is balanced whatever the input was. The client sanitises once more (DOMPurify) before it renders.
 */

/** Elements kept, with the attributes each may carry. */
const ALLOWED: Record<string, readonly string[]> = {
  p: [], div: [], span: [], br: [], hr: [], blockquote: [], pre: [], code: [],
  h1: [], h2: [], h3: [], h4: [], h5: [], h6: [],
  strong: [], b: [], em: [], i: [], u: [], s: [], del: [], ins: [], sub: [], sup: [], small: [], mark: [],
  ul: [], ol: ["start"], li: [], dl: [], dt: [], dd: [],
  table: [], caption: [], thead: [], tbody: [], tfoot: [], tr: [], th: ["colspan", "rowspan"], td: ["colspan", "rowspan"], colgroup: [], col: ["span"],
  a: ["href", "title"],
  img: ["src", "alt", "width", "height"],
  figure: [], figcaption: [],
};

/** Elements dropped with everything inside them: what they hold is code, styling or a page of its own, never text to read. */
/** Attributes any kept element may carry: an id is what in-document links (footnotes, a table of contents) point at. */
const GLOBAL = ["id"];

const DROPPED_WITH_CONTENT = new Set(["script", "style", "template", "noscript", "iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math", "head", "title", "textarea", "select", "button", "audio", "video", "canvas"]);

const VOID = new Set(["br", "hr", "img", "col"]);

/** Pictures only as inlined data of a picture type (a remote picture in an e-mail tells its sender that it was read). */
const IMAGE_DATA_URI = /^data:image\/(?:png|jpe?g|gif|webp|bmp);base64,[a-z0-9+/=\s]*$/i;
/** Links to the web or to mail. */
const SAFE_LINK = /^(?:https?:|mailto:)/i;

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttribute = (value: string) => escapeText(value).replace(/"/g, "&quot;");

function allowedValue(element: string, name: string, value: string): string | null {
  // control characters and spaces inside a scheme ("java\nscript:") are ignored by browsers: compare without them
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  // in-document links point at the prefixed ids (see `id`)
  if (name === "href") return compact.startsWith("#") ? (/^#[\w-]{1,100}$/.test(compact) ? `#preview-${compact.slice(1)}` : null) : SAFE_LINK.test(compact) ? value.trim() : null;
  if (name === "src") return element === "img" && IMAGE_DATA_URI.test(value.trim()) ? value.trim() : null;
  // prefixed, so that a file's ids never clash with (or clobber) the page's own
  if (name === "id") return /^[\w-]{1,100}$/.test(value) ? `preview-${value}` : null;
  if (["colspan", "rowspan", "start", "span", "width", "height"].includes(name)) return /^\d{1,4}$/.test(value.trim()) ? value.trim() : null;
  return value;
}

export function sanitizeHtml(html: string): string {
  const out: string[] = [];
  const open: string[] = [];
  let dropped = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        // htmlparser2 closes every element it opens (a void one at once), so the depth inside a dropped one is counted on both
        if (dropped > 0 || DROPPED_WITH_CONTENT.has(name)) {
          dropped += 1;
          return;
        }
        const allowed = ALLOWED[name];
        if (!allowed) return;
        const kept = [...allowed, ...GLOBAL].flatMap((attribute) => {
          const value = attributes[attribute];
          const safe = value === undefined ? null : allowedValue(name, attribute, value);
          return safe === null ? [] : [` ${attribute}="${escapeAttribute(safe)}"`];
        });
        // a link out of the file opens apart from the app
        if (name === "a" && kept.some((attribute) => attribute.startsWith(' href="http') || attribute.startsWith(' href="mailto'))) kept.push(` target="_blank" rel="noopener noreferrer nofollow"`);
        if (name === "img" && !kept.some((attribute) => attribute.startsWith(" src="))) return;
        out.push(`<${name}${kept.join("")}>`);
        if (!VOID.has(name)) open.push(name);
      },
      ontext(text) {
        if (dropped === 0) out.push(escapeText(text));
      },
      onclosetag(name) {
        if (dropped > 0) {
          dropped -= 1;
          return;
        }
        if (VOID.has(name) || !ALLOWED[name]) return;
        const index = open.lastIndexOf(name);
        if (index < 0) return;
        // close what was left open inside it
        while (open.length > index) out.push(`</${open.pop()}>`);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  while (open.length > 0) out.push(`</${open.pop()}>`);
  return out.join("");
}

import { sanitizeHtml } from "./sanitize-html";

/** The allow-list against what an attacker puts into a DOCX or an e-mail to run script in the reader's session. */
describe("sanitizeHtml", () => {
  test.each([
    ["a script element, with its content", "<p>ok</p><script>alert(1)</script>", "<p>ok</p>"],
    ["a script cased oddly", "<ScRiPt>alert(1)</sCrIpT><p>ok</p>", "<p>ok</p>"],
    ["an event attribute", '<p onclick="alert(1)">ok</p>', "<p>ok</p>"],
    ["an image's onerror and a URL that is no picture", '<img src="x" onerror="alert(1)"><p>ok</p>', "<p>ok</p>"],
    ["a javascript: link", '<a href="javascript:alert(1)">x</a>', "<a>x</a>"],
    ["a javascript: link hidden by entities and control characters", '<a href="jav&#x09;ascript:alert(1)">x</a><a href="&#106;avascript:alert(1)">y</a>', "<a>x</a><a>y</a>"],
    ["an SVG with script", "<svg><script>alert(1)</script><circle onload=alert(1)></circle></svg><p>ok</p>", "<p>ok</p>"],
    ["an iframe, an object and a form", '<iframe src="https://evil"></iframe><object data="x"></object><form action="x"><input value="a"></form><p>ok</p>', "<p>ok</p>"],
    ["a style element and a style attribute", '<style>body{display:none}</style><p style="position:fixed">ok</p>', "<p>ok</p>"],
    ["a data: URL of HTML in an image", '<img src="data:text/html;base64,PHNjcmlwdD4=">', ""],
    ["a remote picture (a read receipt)", '<img src="https://tracker.example/pixel.gif" alt="">', ""],
    ["text that looks like markup", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"],
    ["a tag never closed", "<p><strong>bold", "<p><strong>bold</strong></p>"],
    ["an attribute breaking out of its quotes", '<a href="https://x.example/?a=&quot;onmouseover=&quot;alert(1)">x</a>', '<a href="https://x.example/?a=&quot;onmouseover=&quot;alert(1)" target="_blank" rel="noopener noreferrer nofollow">x</a>'],
  ])("removes %s", (_name, html, expected) => {
    expect(sanitizeHtml(html)).toBe(expected);
  });

  test("keeps the structure of a document: headings, lists, tables, emphasis, inlined pictures and links", () => {
    const html =
      '<h1>Title</h1><p>Some <strong>bold</strong> and <em>italic</em>, <a href="https://example.com">a link</a> and <a href="#note-1">a note</a>.</p>' +
      '<ul><li>one</li></ul><table><tr><th colspan="2">Head</th></tr><tr><td>a</td><td>b</td></tr></table><img src="data:image/png;base64,iVBORw0KGgo=" alt="logo"><p id="note-1">note</p>';
    expect(sanitizeHtml(html)).toBe(
      '<h1>Title</h1><p>Some <strong>bold</strong> and <em>italic</em>, <a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">a link</a> and <a href="#preview-note-1">a note</a>.</p>' +
        '<ul><li>one</li></ul><table><tr><th colspan="2">Head</th></tr><tr><td>a</td><td>b</td></tr></table><img src="data:image/png;base64,iVBORw0KGgo=" alt="logo"><p id="preview-note-1">note</p>',
    );
  });
});

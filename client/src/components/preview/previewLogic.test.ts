import { blobTypeOf, lineNumbers, sheetCut } from "./previewLogic";
import { highlighted } from "./highlight";

describe("the preview's logic", () => {
  test("a blob of a PDF or a picture gets the type the browser needs; other files none", () => {
    expect(blobTypeOf("report.PDF")).toBe("application/pdf");
    expect(blobTypeOf("logo.svg")).toBe("image/svg+xml");
    expect(blobTypeOf("notes.txt")).toBeUndefined();
  });

  test("the gutter numbers every line, a final line break starting none", () => {
    expect(lineNumbers("a\nb\nc")).toBe("1\n2\n3");
    expect(lineNumbers("a\nb\n")).toBe("1\n2");
    expect(lineNumbers("")).toBe("1");
  });

  test("a cut sheet says what it shows of what it has; a whole one says nothing", () => {
    const rows = [["a", "b"], ["1", "2"]];
    expect(sheetCut({ name: "S", rows, totalRows: 5000, totalColumns: 60, truncated: true })).toEqual({ rows: 2, totalRows: 5000, columns: 2, totalColumns: 60 });
    expect(sheetCut({ name: "S", rows, totalRows: 2, totalColumns: 2, truncated: false })).toBeNull();
  });

  test("code is highlighted in its language, escaped; plain text, unknown languages and huge texts are not", () => {
    const html = highlighted('def f():\n    return "<b>"\n', "python")!;
    expect(html).toContain('<span class="hljs-keyword">def</span>');
    expect(html).toContain("&lt;b&gt;");
    expect(html).not.toContain("<b>");
    expect(highlighted("words", null)).toBeNull();
    expect(highlighted("words", "cobol")).toBeNull();
    expect(highlighted("x".repeat(300_000), "python")).toBeNull();
  });
});

import { englishText } from "../parse-log";
import { emailMethod } from "./email";
import { oneMethod } from "./one";
import { pictureMethod } from "./picture";
import { presentationMethod } from "./presentation";
import { resumeMethod } from "./resume";
import { tableMethod } from "./table";
import { tagMethod } from "./tag";
import { box, context, doc, FixedDescriber, h, p, png, sentences } from "./test-support";

describe("Presentation", () => {
  it("makes one chunk per slide, titled with the slide's title, keeping its boxes and picture", async () => {
    const document = doc([
      { kind: "pageBreak", page: 1, title: "Why rivers matter" },
      p("Water for cities", 1),
      p("Transport", 1),
      { kind: "pageBreak", page: 2, title: "Costs" },
      { kind: "table", header: ["Item", "Cost"], rows: [["Dam", "3M"]], page: 2 },
      { kind: "image", image: png, text: "chart: costs by year", page: 2, positions: [box(2, 10)] },
      { kind: "pageBreak", page: 3 },
    ]);
    const { chunks } = await presentationMethod.chunk(document, context());
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toMatchObject({ title: "Why rivers matter", text: "Why rivers matter\nWater for cities\nTransport" });
    expect(chunks[1]).toMatchObject({ title: "Costs", text: "Costs\nItem: Dam; Cost: 3M\nchart: costs by year", positions: [box(2, 10)], image: png });
  });

  it("makes one chunk per page of a PDF, however long the page", async () => {
    const document = doc([
      h(1, "Agenda", 1),
      ...sentences(60).map((s) => p(s, 1, [box(1, 100)])),
      p("Thank you", 2, [box(2, 300)]),
    ]);
    const { chunks } = await presentationMethod.chunk(document, context({ chunk_token_num: 64 }));
    expect(chunks).toHaveLength(2);
    expect(chunks[0].title).toBe("Agenda");
    expect(chunks[1]).toMatchObject({ title: "Thank you", positions: [box(2, 300)] });
  });
});

describe("Table", () => {
  it("makes one chunk per row with the column names, the cells as fields and the sheet as title", async () => {
    const document = doc([{ kind: "table", caption: "Staff", header: ["Name", "Role", "Office"], rows: [["Ada", "Engineer", ""], ["Alan", "Analyst", "London"], ["", "", ""]] }]);
    const { chunks } = await tableMethod.chunk(document, context());
    expect(chunks).toEqual([
      { text: "Name: Ada; Role: Engineer", title: "Staff", fields: { Name: "Ada", Role: "Engineer" } },
      { text: "Name: Alan; Role: Analyst; Office: London", title: "Staff", fields: { Name: "Alan", Role: "Analyst", Office: "London" } },
    ]);
  });

  it('names the columns of a table without a header "column 1", "column 2"', async () => {
    const { chunks } = await tableMethod.chunk(doc([{ kind: "table", header: [], rows: [["x", "1"]] }]), context({}, { fileName: "data.csv" }));
    expect(chunks).toEqual([{ text: "column 1: x; column 2: 1", title: "data", fields: { "column 1": "x", "column 2": "1" } }]);
  });

  it("reads tab-separated lines of a text file as a table", async () => {
    const { chunks } = await tableMethod.chunk(doc([p("city\tpopulation\nLisbon\t545000\nPorto\t232000")]), context({}, { fileName: "cities.txt" }));
    expect(chunks.map((c) => c.text)).toEqual(["city: Lisbon; population: 545000", "city: Porto; population: 232000"]);
  });
});

describe("Resume", () => {
  it("reads name, contact details and sections (English) into fields, one chunk per field group", async () => {
    const document = doc([
      p("Jane Doe"),
      p("jane.doe@example.com | +1 415 555 0134"),
      h(2, "Summary"),
      p("Data engineer with eight years of pipelines."),
      h(2, "Education"),
      p("MSc Computer Science, University of Lisbon, 2016"),
      h(2, "Work Experience"),
      p("2019–now: Lead engineer, Acme Corp"),
      p("2016–2019: Engineer, River Labs"),
      h(2, "Skills"),
      p("Python, SQL, Spark"),
    ]);
    const { chunks } = await resumeMethod.chunk(document, context());
    expect(chunks.map((c) => c.title)).toEqual(["Contact", "Summary", "Education", "Work experience", "Skills"]);
    expect(chunks[0].fields).toEqual({ name: "Jane Doe", email: "jane.doe@example.com", phone: "+1 415 555 0134" });
    expect(chunks[3]).toMatchObject({
      text: "Work experience\n2019–now: Lead engineer, Acme Corp\n2016–2019: Engineer, River Labs",
      fields: { work_experience: "2019–now: Lead engineer, Acme Corp\n2016–2019: Engineer, River Labs" },
    });
    expect(chunks[4].fields).toEqual({ skills: "Python, SQL, Spark" });
  });

  it("reads Chinese section names and labelled fields (姓名, 电话, 教育经历, 工作经历, 专业技能)", async () => {
    const text = "姓名：张伟\n电话：138 0013 8000\n邮箱：zhangwei@example.cn\n教育经历\n2012-2016 北京大学 计算机科学 学士\n工作经历\n2016-2020 某科技公司 后端工程师\n专业技能\nJava、Go、分布式系统";
    const { chunks } = await resumeMethod.chunk(doc([p(text)]), context());
    expect(chunks[0].fields).toEqual({ name: "张伟", phone: "138 0013 8000", email: "zhangwei@example.cn" });
    expect(chunks.slice(1).map((c) => [c.title, c.text.split("\n")[1]])).toEqual([
      ["Education", "2012-2016 北京大学 计算机科学 学士"],
      ["Work experience", "2016-2020 某科技公司 后端工程师"],
      ["Skills", "Java、Go、分布式系统"],
    ]);
  });
});

describe("Picture", () => {
  const photo = doc([{ kind: "image", image: png, text: "EXIT 12  Lisbon 5 km" }]);

  it("puts the image-to-text model's description before the OCR text, and keeps the image", async () => {
    const describer = new FixedDescriber("A green motorway sign.");
    const { chunks, notes } = await pictureMethod.chunk(photo, context({}, { language: "English", img2txt: async () => ({ model: describer, id: "vision@Test" }) }));
    expect(chunks).toEqual([{ text: "A green motorway sign.\nEXIT 12  Lisbon 5 km", image: png, title: "document.pdf" }]);
    expect(describer.calls).toEqual([{ language: "English" }]);
    expect(notes).toEqual([]);
  });

  it("keeps the OCR text only, and says so, when no image-to-text model is set", async () => {
    const { chunks, notes } = await pictureMethod.chunk(photo, context());
    expect(chunks.map((c) => c.text)).toEqual(["EXIT 12  Lisbon 5 km"]);
    expect(chunks[0].image).toBe(png);
    expect(notes?.map(englishText).join(" ")).toMatch(/No image-to-text model/);
  });
});

describe("One", () => {
  it("makes the whole file one chunk, however long", async () => {
    const document = doc([h(1, "Contract"), ...sentences(200).map((s) => p(s)), { kind: "table", header: ["Party"], rows: [["Acme"]] }], { title: "Contract" });
    const { chunks } = await oneMethod.chunk(document, context({ chunk_token_num: 128 }));
    expect(chunks).toHaveLength(1);
    expect(chunks[0].text.startsWith("Contract\nSentence 1 tells")).toBe(true);
    expect(chunks[0].text.endsWith("Party: Acme")).toBe(true);
  });
});

describe("Email", () => {
  it("opens with the header, merges the body by the budget, and chunks attachments titled with their names", async () => {
    const document = doc(
      [p("From: ada@example.com\nTo: alan@example.com\nSubject: River survey\nDate: Mon, 3 Mar 2025 10:00:00 +0000"), ...sentences(3).map((s) => p(s))],
      { title: "River survey", attachments: [{ fileName: "survey.pdf", document: doc([h(1, "Results"), p("The river is 12 km long.")]) }] },
    );
    const { chunks } = await emailMethod.chunk(document, context());
    expect(chunks).toHaveLength(2);
    expect(chunks[0].text).toMatch(/^From: ada@example.com\nTo: alan@example.com\nSubject: River survey\nDate: .*\nSentence 1 tells/);
    expect(chunks[0].title).toBe("River survey");
    expect(chunks[1]).toMatchObject({ text: "Results\nThe river is 12 km long.", title: "survey.pdf > Results" });
  });
});

describe("Tag", () => {
  it("makes each 'content<TAB>tags' line or table row a chunk with its tags as keywords", async () => {
    const lines = await tagMethod.chunk(doc([p("How do I reset my password?\taccount,password\nWhere is my invoice?\tbilling")]), context());
    expect(lines.chunks).toEqual([
      { text: "How do I reset my password?", keywords: ["account", "password"] },
      { text: "Where is my invoice?", keywords: ["billing"] },
    ]);
    const table = await tagMethod.chunk(doc([{ kind: "table", header: [], rows: [["Content", "Tags"], ["Refund policy", "billing，refund"]] }]), context());
    expect(table.chunks).toEqual([{ text: "Refund policy", keywords: ["billing", "refund"] }]);
  });
});

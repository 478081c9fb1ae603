import { newId } from "./ids";

describe("ids", () => {
  it("are version-1 UUIDs as 32 lower-case hex characters, as RAGFlow's dataset endpoints require", () => {
    const id = newId();
    expect(id).toMatch(/^[0-9a-f]{12}1[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
  });

  it("never repeat, even many within one millisecond", () => {
    const ids = Array.from({ length: 20000 }, newId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

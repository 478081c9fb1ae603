import { antecedentOf, refersToEarlierTurns } from "./follow-up";

describe("whether a question refers to earlier turns", () => {
  it("a pronoun, a demonstrative, a follow-up opener or a fragment refers back", () => {
    for (const question of [
      "When was it built?",
      "Who designed them?",
      "What is its price?",
      "Does that apply to contractors?",
      "And the highest?",
      "What about winter?",
      "How about the second floor?",
      "Why?",
      "In 1990?",
      "它是什么时候建成的？",
      "那冬天呢？",
      "这个政策适用于外包人员吗？",
      "为什么？",
    ]) {
      expect([question, refersToEarlierTurns(question)]).toEqual([question, true]);
    }
  });

  it("a question that names its subject stands alone", () => {
    for (const question of [
      "Can I work from home?",
      "What is the law that governs the tides?",
      "Is it possible to work from home on Fridays?",
      "What did Davies call his system?",
      "What does it mean when currencies are left to float?",
      "How many days of leave do new employees get?",
      "In what country is Normandy located?",
      "公司的远程办公政策是什么？",
      "新员工有多少天年假？",
    ]) {
      expect([question, refersToEarlierTurns(question)]).toEqual([question, false]);
    }
  });
});

describe("what a follow-up's pronoun stands for", () => {
  it("is the first name the earlier question gives, else nothing (its key words stand in)", () => {
    expect(antecedentOf("Who was the Normans' main enemy in Italy, the Byzantine Empire and Armenia?")).toBe("Normans");
    expect(antecedentOf("When did the Storseisundet Bridge open?")).toBe("Storseisundet Bridge");
    expect(antecedentOf("What causes tides?")).toBeNull();
    expect(antecedentOf("潮汐是由什么引起的？")).toBeNull();
  });
});

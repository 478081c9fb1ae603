import { acronymsOf, answerKind, capitalisedAbbreviations, holdsAnswerOfKind, negationBearsOn, sameNameVariant } from "./answer-checks";
import { analyze } from "./text-analysis";

describe("checks that a sentence can hold the answer", () => {
  it("asks a sentence for a year, or a count, only when the question asks for one", () => {
    expect(answerKind("In what year did the bridge open?")).toBe("year");
    expect(answerKind("Which century saw the first bridge?")).toBe("year");
    expect(answerKind("How many lanes does the bridge have?")).toBe("count");
    expect(answerKind("When did the bridge open?")).toBeUndefined();
    expect(answerKind("Who built the bridge?")).toBeUndefined();
  });

  it("finds the year or the count in the sentence, but not the one the question already gives", () => {
    expect(holdsAnswerOfKind("year", "The bridge opened in 1932 after six years of work.", "In what year did the bridge open?")).toBe(true);
    expect(holdsAnswerOfKind("year", "The first bridge dates from the 12th century.", "In what century was the first bridge built?")).toBe(true);
    expect(holdsAnswerOfKind("year", "The bridge was designed by a young engineer.", "In what year was the bridge designed?")).toBe(false);
    expect(holdsAnswerOfKind("year", "The 1932 bridge was designed by a young engineer.", "In what year was the designer of the 1932 bridge born?")).toBe(false);
    expect(holdsAnswerOfKind("count", "The bridge carries eight lanes of traffic.", "How many lanes does the bridge carry?")).toBe(true);
    expect(holdsAnswerOfKind("count", "The bridge carries the motorway across the bay.", "How many lanes does the bridge carry?")).toBe(false);
  });

  it("takes a negation as bearing on the words that closely follow it", () => {
    const terms = new Set(analyze("What did the council not approve?"));
    expect(negationBearsOn("The council did not approve the second tunnel.", terms)).toBe(true);
    expect(negationBearsOn("The council approved the tunnel, not just the bridge.", terms)).toBe(false);
    expect(negationBearsOn("The council approved the tunnel.", terms)).toBe(false);
    // Right before the word, it denies what a question states: "is not always practical".
    const practical = new Set(analyze("Which method is always practical?"));
    expect(negationBearsOn("The second method is not always practical.", practical, 1)).toBe(true);
    expect(negationBearsOn("Not every method is practical, but the second always is.", practical, 1)).toBe(false);
  });

  it("knows a name in its other forms: demonyms, centuries, decades, roman numerals", () => {
    expect(sameNameVariant("paris", "parisian")).toBe(true);
    expect(sameNameVariant("african", "africa")).toBe(true);
    expect(sameNameVariant("japan", "japanese")).toBe(true);
    expect(sameNameVariant("1700s", "18th")).toBe(true);
    expect(sameNameVariant("15th", "1400s")).toBe(true);
    expect(sameNameVariant("1950", "1950s")).toBe(true);
    expect(sameNameVariant("2", "ii")).toBe(true);
    expect(sameNameVariant("paris", "parish")).toBe(false);
    expect(sameNameVariant("1700s", "17th")).toBe(false);
    expect(sameNameVariant("spain", "spaniel")).toBe(false);
  });

  it("reads acronyms off runs of capitalised words, and abbreviations written in capitals", () => {
    const acronyms = acronymsOf("Appeals go to the Court of Justice of the European Union in Luxembourg.");
    expect(acronyms.get("eu")).toEqual(["european", "union"]);
    expect(acronyms.get("cjeu")).toEqual(["court", "justice", "european", "union"]);
    expect(acronyms.has("el")).toBe(false);
    expect([...capitalisedAbbreviations("Both the US and the EU signed; NATO did not.")]).toEqual(["us", "eu", "nato"]);
  });
});

import { Conflict, DomainError, Invalid, NotFound } from "../platform/errors";
import { wordedError, type RestErrorTable } from "./error-table";

const table: RestErrorTable = {
  "errors.chat.nameTaken": ({ name }) => `Duplicated chat name ${name}.`,
  "errors.chat.embeddingMismatch": { code: 109, text: () => "Datasets use different embedding models." },
  "errors.chat.modelUnavailable": ({ model }, field) => `${field === "rerankModel" ? "rerank_model" : "model_name"} ${model} doesn't exist`,
};

describe("a route's error table", () => {
  it("words a listed key with RAGFlow's text and its usual refusal code 102", () => {
    expect(wordedError(table, Conflict("errors.chat.nameTaken", { name: "Desk" }))).toEqual({ code: 102, message: "Duplicated chat name Desk." });
  });

  it("answers with the code an entry names", () => {
    expect(wordedError(table, Invalid([{ field: "knowledgeBaseIds", messageKey: "errors.chat.embeddingMismatch" }]))).toEqual({ code: 109, message: "Datasets use different embedding models." });
  });

  it("hands an entry the field of the first problem", () => {
    const rerank = Invalid([{ field: "rerankModel", messageKey: "errors.chat.modelUnavailable", params: { model: "r" } }]);
    const chat = Invalid([{ field: "chatModel", messageKey: "errors.chat.modelUnavailable", params: { model: "c" } }]);
    expect([wordedError(table, rerank).message, wordedError(table, chat).message]).toEqual(["rerank_model r doesn't exist", "model_name c doesn't exist"]);
  });

  it("falls back to the error's own code and English message for a key it does not list, or without a table", () => {
    const missing = NotFound("errors.chat.notFound");
    expect(wordedError(table, missing)).toEqual({ code: missing.restCode, message: missing.message });
    const other = new DomainError("BAD_REQUEST", "errors.chat.nameRequired");
    expect(wordedError(undefined, other)).toEqual({ code: 101, message: other.message });
  });
});

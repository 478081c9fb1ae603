import { beforeAll, describe, expect, test } from "@jest/globals";
import { CombinedGraphQLErrors, ServerError } from "@apollo/client";
import i18next, { type i18n as I18n } from "i18next";
import { describeError, errorCodeOf, fieldProblemsOf, hasNoProblems, messageKeyOf, messageParamsOf, problemText } from "./errors";

/** A failed request becomes a sentence in the user's language, and field problems go under their fields. */

let i18n: I18n;
beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.init({
    lng: "en",
    interpolation: { escapeValue: false },
    resources: {
      en: {
        translation: {
          errors: { requestError: "Request error", networkAnomaly: "Network anomaly", invalidInput: "Invalid input", chat: { between: "Between {{min}} and {{max}}" } },
          httpStatus: { 403: "Forbidden here", 502: "Bad gateway" },
        },
      },
    },
  });
});

function graphQLFailure(...errors: { message: string; extensions?: Record<string, unknown> }[]) {
  return new CombinedGraphQLErrors({ data: null, errors });
}

describe("describing a failed request", () => {
  test("the server's message key comes first, with its parameters", () => {
    const failure = graphQLFailure({ message: "Between 1 and 30", extensions: { messageKey: "errors.chat.between", params: { min: 1, max: 30 }, httpStatus: 403 } });
    expect(describeError(failure, i18n)).toBe("Between 1 and 30");
  });

  test("a key the client lacks falls back to the HTTP status's text, then to the request error", () => {
    expect(describeError(graphQLFailure({ message: "x", extensions: { messageKey: "errors.unknown", httpStatus: 403 } }), i18n)).toBe("Forbidden here");
    expect(describeError(graphQLFailure({ message: "x" }), i18n)).toBe("Request error");
  });

  test("a server error speaks its status, and no answer at all is a network anomaly", () => {
    const response = { status: 502 } as Response;
    expect(describeError(new ServerError("bad gateway", { response, bodyText: "" }), i18n)).toBe("Bad gateway");
    expect(describeError(new TypeError("Failed to fetch"), i18n)).toBe("Network anomaly");
  });
});

describe("field problems", () => {
  const failure = graphQLFailure(
    {
      message: "invalid",
      extensions: {
        code: "BAD_USER_INPUT",
        messageKey: "errors.invalidInput",
        params: { count: 2 },
        fields: [
          { field: "topN", messageKey: "errors.chat.between", params: { min: 1, max: 30 } },
          { field: "name", message: "Name is taken" },
          { field: "topN", messageKey: "errors.other" },
        ],
      },
    },
  );

  test("each field keeps its first problem, as a message key", () => {
    expect(fieldProblemsOf(failure)).toEqual({
      topN: { key: "errors.chat.between", params: { min: 1, max: 30 }, text: undefined },
      name: { key: "errors.invalidInput", params: undefined, text: "Name is taken" },
    });
    expect(fieldProblemsOf(new Error("offline"))).toEqual({});
  });

  test("a problem reads in the user's language, else as the server wrote it", () => {
    expect(problemText(i18n, { key: "errors.chat.between", params: { min: 1, max: 30 } })).toBe("Between 1 and 30");
    expect(problemText(i18n, { key: "errors.missing", text: "Name is taken" })).toBe("Name is taken");
    expect(problemText(i18n, { key: "errors.missing" })).toBe("Invalid input");
    expect(problemText(i18n, undefined)).toBeUndefined();
  });

  test("a form may be submitted once no field has a problem", () => {
    expect(hasNoProblems({})).toBe(true);
    expect(hasNoProblems({ name: undefined })).toBe(true);
    expect(hasNoProblems({ name: { key: "errors.chat.nameRequired" } })).toBe(false);
  });

  test("the failure's code, message key and parameters can be read", () => {
    expect(errorCodeOf(failure)).toBe("BAD_USER_INPUT");
    expect(messageKeyOf(failure)).toBe("errors.invalidInput");
    expect(messageParamsOf(failure)).toEqual({ count: 2 });
    expect(messageKeyOf(new Error("offline"))).toBeUndefined();
  });
});

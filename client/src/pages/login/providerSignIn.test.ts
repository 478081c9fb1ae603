import { outcomeOf, providerStartHref } from "./providerSignIn";

describe("sign-in with an identity provider, on the login page", () => {
  it("sets off to the server's start address with the page to come back to, the remember-me choice and the language", () => {
    expect(providerStartHref("/v1/auth/github/start", { returnTo: "/knowledge?tab=1", remember: true, language: "zh-TRADITIONAL" })).toBe(
      "/v1/auth/github/start?redirect=%2Fknowledge%3Ftab%3D1&lng=zh-TRADITIONAL&remember=1",
    );
    expect(providerStartHref("/v1/auth/oidc/start", { returnTo: "/my", remember: false, language: "en" })).toBe("/v1/auth/oidc/start?redirect=%2Fmy&lng=en");
  });

  it("reads the claimed outcome: a session, or the message key and its parameters", () => {
    expect(outcomeOf({ code: 0, data: { token: "t", redirect: "/chat" } })).toEqual({ ok: true, token: "t", redirect: "/chat" });
    expect(outcomeOf({ code: 109, data: { messageKey: "errors.sso.denied", params: { provider: "GitHub" } } })).toEqual({ ok: false, messageKey: "errors.sso.denied", params: { provider: "GitHub" } });
    expect(outcomeOf({ code: 100 })).toEqual({ ok: false, messageKey: "errors.requestError", params: {} });
  });
});

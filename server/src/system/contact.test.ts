import { loadConfig } from "../platform/config";
import { sharedTestServer } from "../testing/app";

/** Settings → Contact Us reads how to reach the operator from CONTACT_*; a bad address stops the start. */

test("CONTACT_* are read, each optional; nothing set leaves them all out", () => {
  const configured = loadConfig({
    CONTACT_NAME: "Harbour IT",
    CONTACT_EMAIL: "help@harbour.example",
    CONTACT_URL: "https://harbour.example/support",
    CONTACT_MESSAGE: "Weekdays 9–17.",
  }).contact;
  expect(configured).toEqual({ name: "Harbour IT", email: "help@harbour.example", url: "https://harbour.example/support", message: "Weekdays 9–17." });
  expect(loadConfig({}).contact).toEqual({ name: undefined, email: undefined, url: undefined, message: undefined });
});

test("an address a mailto: link could be abused with, or a URL that is not http(s), stops the start with both named", () => {
  expect(() => loadConfig({ CONTACT_EMAIL: "a@b.example?cc=c@d.example, e@f.example", CONTACT_URL: "javascript:alert(1)" })).toThrow(
    /CONTACT_EMAIL must be one e-mail address[\s\S]*CONTACT_URL must start with http:\/\/ or https:\/\//,
  );
});

test("anyone, signed in or not, reads the contact; unconfigured, every part is null", async () => {
  const server = await sharedTestServer();
  const answer = await server.graphql<{ contact: Record<string, string | null> }>(`{ contact { name email url message } }`);
  expect(answer.data?.contact).toEqual({ name: null, email: null, url: null, message: null });
});

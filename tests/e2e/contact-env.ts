/** How to reach the operator of the browser tests' server (Settings → Contact us), set by playwright.config.ts. */
export const CONTACT_ENV = {
  CONTACT_NAME: "Harbour IT desk",
  CONTACT_EMAIL: "help@harbour.example",
  CONTACT_URL: "https://harbour.example/support",
  CONTACT_MESSAGE: "Weekdays from 9 to 17. Say which knowledge base you mean.",
};

import { home, live, type Policy } from "./rules";

/**
 * A tenant's model settings: its provider entries and default models. Its members read them and use the models
 * (a team knowledge base embeds with its own tenant's models, whoever asks); adding, changing and removing providers
 * and defaults is for the tenant's owner and admins.
 */
export interface ModelSettingsResource {
  kind: "modelSettings";
  tenantId: string;
}

export const modelSettingsPolicy: Policy = {
  rules: (principal, action) => live([{ tenantId: home(principal, action === "read" || action === "use" ? "member" : "manager") }]),
  notFound: "errors.model.entryNotFound",
  forbidden: "errors.forbidden",
};

import { DomainError } from "../../../platform/errors";
import type { ParamIssue } from "../../../platform/param-spec";
import type { ComponentContext, ComponentDefinition } from "../../component";
import { DESCRIPTION } from "../../params";
import { callVendor, htmlToText, outsideError } from "../outside-service";
import { PROXY, refuseProxy, WEB_TOOL_MAX_BYTES } from "./web";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * Invoke: one HTTP request to a URL the flow's author names (RAGFlow v0.14's HTTP tool), through the run's
 * outbound guard, so that a flow cannot make the server reach its own network or a cloud's metadata service.
 *
 * As RAGFlow, the `variables` (a key with a component's output or a fixed value) go as the query string of a
 * GET, the JSON body of a POST and the form of a PUT (Cairn adds PATCH as POST, DELETE as GET). Beyond RAGFlow,
 * a templated body (JSON, form or raw text) where `{references}` and the variables' `{key}`s are filled in,
 * and `{references}` in the URL and the headers' values.
 */

const NAME = "Invoke";
const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const BODY_TYPES = ["none", "json", "form", "raw"] as const;
const WITH_BODY = ["post", "put", "patch", "delete"];

const issue = (messageKey: string): ParamIssue[] => [{ code: "format", messageKey }];

/** A JSON object's text (or nothing); its string values are templates. */
function parseObject(text: unknown): Record<string, unknown> | null {
  if (typeof text !== "string" || text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

interface Variable {
  key: string;
  component_id?: string;
  value?: string;
}

function checkVariables(value: unknown): ParamIssue[] {
  if (!Array.isArray(value)) return issue("flow.components.Invoke.errors.variables");
  return value.flatMap((entry, i): ParamIssue[] =>
    isPlainObject(entry) && typeof entry.key === "string" && (entry.component_id === undefined || typeof entry.component_id === "string") && (entry.value === undefined || typeof entry.value === "string")
      ? []
      : [{ path: String(i), code: "format", messageKey: "flow.components.Invoke.errors.variables", value: entry }],
  );
}

const PLACEHOLDER = /\{[^{}\s]+\}/g;

/** Fills a template: the variables' `{key}`s first, then the flow's `{references}`. */
function filler(context: ComponentContext, variables: Record<string, string>) {
  return (template: string, encode: (value: string) => string = (value) => value) =>
    template.replace(PLACEHOLDER, (placeholder) => {
      const key = placeholder.slice(1, -1);
      if (key in variables) return encode(variables[key]);
      const value = context.resolve(placeholder);
      return value === placeholder ? placeholder : encode(value);
    });
}

/** A JSON value with every string in it filled. */
function fillJson(value: unknown, fill: (template: string) => string): unknown {
  if (typeof value === "string") return fill(value);
  if (Array.isArray(value)) return value.map((item) => fillJson(item, fill));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillJson(item, fill)]));
  return value;
}

const stringValue = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function variableValues(context: ComponentContext, variables: Variable[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const variable of variables) {
    if (!variable.key) continue;
    if (variable.component_id) {
      const placeholder = `{${variable.component_id}}`;
      const value = context.resolve(placeholder);
      values[variable.key] = value === placeholder ? "" : value;
    } else values[variable.key] = context.resolve(variable.value ?? "");
  }
  return values;
}

const hasHeader = (headers: Record<string, string>, name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);

export const invoke: ComponentDefinition = {
  name: NAME,
  category: "tools",
  icon: "LuGlobe",
  needs: ["internet"],
  secretsGoTo: ["url"],
  params: [
    DESCRIPTION,
    { key: "url", type: "string", label: "flow.components.Invoke.params.url", help: "flow.components.Invoke.help.url", required: true, trimmed: true },
    { key: "method", type: "select", label: "flow.components.Invoke.params.method", options: METHODS.map((value) => ({ value })), default: "get" },
    { key: "timeout", type: "integer", label: "flow.components.Invoke.params.timeout", min: 1, max: 600, default: 60 },
    // Sealed as a whole: an HTTP tool's headers are where its credentials go (Authorization, an API key).
    {
      key: "headers",
      type: "secret",
      label: "flow.components.Invoke.params.headers",
      help: "flow.components.Invoke.help.headers",
      default: "",
      widget: "json",
      check: (value) => (parseObject(value) ? [] : issue("flow.components.Invoke.errors.headers")),
    },
    PROXY,
    { key: "clean_html", type: "boolean", label: "flow.components.Invoke.params.clean_html", help: "flow.components.Invoke.help.clean_html", default: false },
    { key: "variables", type: "json", label: "flow.components.Invoke.params.variables", help: "flow.components.Invoke.help.variables", default: [], widget: "keyValueReferences", check: checkVariables },
    {
      key: "body_type",
      type: "select",
      label: "flow.components.Invoke.params.body_type",
      help: "flow.components.Invoke.help.body_type",
      options: BODY_TYPES.map((value) => ({ value, label: `flow.components.Invoke.bodyTypes.${value}` })),
      default: "none",
      displayOptions: { show: { method: WITH_BODY } },
    },
    {
      key: "body",
      type: "text",
      label: "flow.components.Invoke.params.body",
      help: "flow.components.Invoke.help.body",
      default: "",
      widget: "multiline",
      displayOptions: { show: { method: WITH_BODY, body_type: ["json", "form", "raw"] } },
      check: (value, siblings) => {
        if (siblings.body_type === "json" && typeof value === "string" && value.trim() !== "") {
          try {
            JSON.parse(value);
          } catch {
            return issue("flow.components.Invoke.errors.body");
          }
        }
        return siblings.body_type === "form" && !parseObject(value) ? issue("flow.components.Invoke.errors.form") : [];
      },
    },
  ],
  async run(context) {
    const params = context.params;
    refuseProxy(params.proxy);
    const method = String(params.method).toLowerCase();
    const variables = variableValues(context, (params.variables as Variable[]) ?? []);
    const fill = filler(context, variables);

    let address = fill(String(params.url).trim(), encodeURI);
    if (!/^https?:\/\//i.test(address)) address = `http://${address}`;
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw outsideError("BAD_REQUEST", "invalidUrl", { url: address });
    }

    const headerTemplates = parseObject(params.headers);
    if (!headerTemplates) throw new DomainError("BAD_REQUEST", "flow.components.Invoke.errors.headers");
    const headers = Object.fromEntries(Object.entries(headerTemplates).map(([name, value]) => [name, fill(stringValue(value))]));

    const bodyType = WITH_BODY.includes(method) ? String(params.body_type) : "none";
    let body: string | URLSearchParams | undefined;
    if (bodyType === "json") {
      let template: unknown;
      try {
        template = JSON.parse(String(params.body || "{}"));
      } catch {
        throw new DomainError("BAD_REQUEST", "flow.components.Invoke.errors.body");
      }
      body = JSON.stringify(fillJson(template, fill));
      if (!hasHeader(headers, "content-type")) headers["content-type"] = "application/json";
    } else if (bodyType === "form") {
      const template = parseObject(params.body);
      if (!template) throw new DomainError("BAD_REQUEST", "flow.components.Invoke.errors.form");
      body = new URLSearchParams(Object.entries(template).map(([key, value]): [string, string] => [key, fill(stringValue(value))]));
    } else if (bodyType === "raw") {
      body = fill(String(params.body));
      if (!hasHeader(headers, "content-type")) headers["content-type"] = "text/plain; charset=utf-8";
    } else if (method === "get" || method === "delete") {
      for (const [key, value] of Object.entries(variables)) url.searchParams.append(key, value);
    } else if (method === "put") {
      body = new URLSearchParams(variables);
    } else {
      body = JSON.stringify(variables);
      if (!hasHeader(headers, "content-type")) headers["content-type"] = "application/json";
    }

    const { text } = await callVendor(context, { service: url.href, url, method: method.toUpperCase(), headers, body, timeoutMs: Number(params.timeout) * 1000, maxBytes: WEB_TOOL_MAX_BYTES });
    return { content: params.clean_html ? htmlToText(text) : text };
  },
};

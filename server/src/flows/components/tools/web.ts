import type { DomainError } from "../../../platform/errors";
import type { ParamSpec } from "../../../platform/param-spec";
import { outsideError } from "../outside-service";

/**
 * What the web tools (Invoke, Crawler) share besides the calls out (../outside-service.ts): their size cap and
 * RAGFlow's proxy parameter, which Cairn refuses.
 */

/** The most of an answer a web tool reads: more would not fit any model's context anyway. */
export const WEB_TOOL_MAX_BYTES = 5 * 1024 * 1024;

/**
 * RAGFlow's tools take a proxy; a proxy would carry the request past the outbound guard (it connects, not the
 * server), so Cairn refuses one. An empty value or a bare scheme ("http://", the form's placeholder) is none.
 */
export function refuseProxy(proxy: unknown): void {
  if (typeof proxy === "string" && proxy.replace(/https?:?\/?\/?/i, "").trim() !== "") throw outsideError("BAD_REQUEST", "proxyUnsupported");
}

/** RAGFlow's `proxy` parameter, kept so that its flows import; any proxy is refused when saved and when run. */
export const PROXY: ParamSpec = {
  key: "proxy",
  type: "string",
  label: "flow.params.proxy",
  help: "flow.help.proxy",
  default: "",
  check: (value) => {
    try {
      refuseProxy(value);
      return [];
    } catch (error) {
      return [{ code: "format", messageKey: (error as DomainError).messageKey }];
    }
  },
};

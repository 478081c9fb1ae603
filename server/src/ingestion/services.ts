import type { Previews } from "./preview/previews";
import type { ParserSandbox } from "./sandbox/parser-sandbox";

declare module "../platform/services" {
  interface Services {
    /** Where files are parsed: processes apart from this one, with limits (ingestion/sandbox). */
    parsers: ParserSandbox;
    /** Rendered previews of stored files (ingestion/preview), made where files are parsed and kept per storage key. */
    previews: Previews;
  }
}

import type { ParserSandbox } from "./sandbox/parser-sandbox";

declare module "../platform/services" {
  interface Services {
    /** Where files are parsed: processes apart from this one, with limits (ingestion/sandbox). */
    parsers: ParserSandbox;
  }
}

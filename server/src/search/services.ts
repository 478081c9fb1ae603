import type { SearchService } from "./search.service";

declare module "../platform/services" {
  interface Services {
    search: SearchService;
  }
}

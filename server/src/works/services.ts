import type { WorksService } from "./works.service";

declare module "../platform/services" {
  interface Services {
    works: WorksService;
  }
}

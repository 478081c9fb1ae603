import type { ModelsService } from "./models.service";

declare module "../platform/services" {
  interface Services {
    models: ModelsService;
  }
}

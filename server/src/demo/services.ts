import type { DemoService } from "./demo.service";

declare module "../platform/services" {
  interface Services {
    demo: DemoService;
  }
}

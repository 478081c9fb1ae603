import type { RetrievalService } from "./retrieval.service";

declare module "../platform/services" {
  interface Services {
    retrieval: RetrievalService;
  }
}

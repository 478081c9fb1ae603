import type { FlowService } from "./flow.service";
import type { FlowRunService } from "./flow-run.service";
import type { FlowShareService } from "./flow-share.service";

declare module "../platform/services" {
  interface Services {
    flows: FlowService;
    flowRuns: FlowRunService;
    flowShares: FlowShareService;
  }
}

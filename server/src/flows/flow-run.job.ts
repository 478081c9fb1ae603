import type { JobDefinition } from "../platform/queue";
import type { Services } from "../platform/services";
import { RUN_JOB, type RunPayload } from "./flow-run.service";

/**
 * One turn of a flow. Never retried: a turn's components may have acted on the outside world (an HTTP call, a
 * message sent), and the user sees a failed run with its reason instead.
 */
export const flowRunJob: JobDefinition<Services, RunPayload> = {
  name: RUN_JOB,
  // A person is waiting on the turn (the run drawer, the agents API): it must not wait behind parse jobs.
  lane: "interactive",
  attempts: 1,
  backoffMs: 0,
  run: (payload, services) => services.flowRuns.execute(payload),
  onFinalFailure: (payload, services, error) => services.flowRuns.failUnexpectedly(payload, error),
};

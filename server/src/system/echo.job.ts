import type { JobDefinition } from "../platform/queue";
import type { Services } from "../platform/services";

export const ECHO_TOPIC = "system.echo";

export interface EchoPayload {
  message: string;
  /** Fail this many attempts before succeeding, to exercise retries. */
  failAttempts?: number;
}

export interface EchoResult {
  jobId: string;
  attempt: number;
  message: string;
  pid: number;
}

/**
 * The queue's self-test: publishes what it was given, with the id of the process that ran it, on the
 * pub/sub port. Operators and tests use it to see that jobs cross from a server to a worker and back.
 */
export const echoJob: JobDefinition<Services, EchoPayload> = {
  name: "system.echo",
  attempts: 3,
  backoffMs: 50,
  async run(payload, services, run) {
    if (run.attempt <= (payload.failAttempts ?? 0)) {
      throw new Error(`echo asked to fail attempt ${run.attempt}`);
    }
    const result: EchoResult = { jobId: run.jobId, attempt: run.attempt, message: payload.message, pid: process.pid };
    services.platform.pubsub.publish(ECHO_TOPIC, result);
  },
};

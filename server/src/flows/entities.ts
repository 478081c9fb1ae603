import { Flow } from "./flow.entity";
import { FlowRun, FlowRunEventRow, FlowRunStep } from "./flow-run.entity";
import { FlowSession } from "./flow-session.entity";
import { FlowShare } from "./flow-share.entity";
import { FlowVersion } from "./flow-version.entity";

/** The flows domain's tables (migrations/1764470000000-flows.ts, 1764480000000-flow-shares.ts). */
export const FLOW_ENTITIES = [Flow, FlowVersion, FlowSession, FlowRun, FlowRunStep, FlowRunEventRow, FlowShare];

import type { JobDefinition } from "../platform/queue";
import type { Services } from "../platform/services";
import { parseJob } from "../knowledge/parse.job";
import { kbTaskJob } from "../knowledge/kb-tasks/kb-task.job";
import { echoJob } from "../system/echo.job";
import { flowRunJob } from "../flows/flow-run.job";

/** Every kind of background job. Adding one is one module and one line here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const jobDefinitions: JobDefinition<Services, any>[] = [echoJob, parseJob, kbTaskJob, flowRunJob];

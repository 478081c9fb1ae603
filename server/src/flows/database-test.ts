import type { ConnectionTest } from "../models/models.service";
import { DomainError } from "../platform/errors";
import { exeSql, testDatabaseConnection } from "./components/tools/exe-sql";
import type { FlowDsl } from "./dsl";
import type { FlowPorts } from "./ports";

/** Where a connection goes: the saved password is only ever sent there. */
const ADDRESS = ["db_type", "host", "port"] as const;

/**
 * The editor's Test button of an ExeSQL node: connects with the form's values over the saved params. A password
 * left empty is the saved one, as long as the connection goes where the saved params sent it (as a model's stored
 * key): the form need not hold the password again, and another address cannot obtain it.
 */
export async function testFlowDatabase(dsl: FlowDsl, componentId: string, given: Record<string, unknown>, ports: FlowPorts): Promise<ConnectionTest> {
  const component = dsl.components[componentId];
  if (component?.obj.component_name !== exeSql.name) throw new DomainError("BAD_REQUEST", "flow.errors.componentNotFound", { id: componentId });
  const saved = component.obj.params;
  const values = { ...saved, ...given };
  const sameAddress = ADDRESS.every((key) => String(values[key] ?? "").trim() === String(saved[key] ?? "").trim());
  if (!values.password && sameAddress) values.password = saved.password ?? "";
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  try {
    await testDatabaseConnection(values, ports);
    return { ok: true, latencyMs: latencyMs(), message: null, messageKey: null, params: null };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { ok: false, latencyMs: latencyMs(), message: error.message, messageKey: error.messageKey, params: error.params };
  }
}

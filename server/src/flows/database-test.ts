import type { ConnectionTest } from "../models/models.service";
import { DomainError } from "../platform/errors";
import { exeSql, testDatabaseConnection } from "./components/tools/exe-sql";
import type { FlowDsl } from "./dsl";
import { givenOverStored, openSecrets } from "./flow-secrets";
import type { FlowPorts } from "./ports";

/**
 * The editor's Test button of an ExeSQL node: connects with the form's values over the saved params. A password
 * left empty or masked is the saved one, as long as the connection goes where the saved params sent it (as a
 * model's stored key, flow-secrets.ts): the form never holds the password again, and another address cannot obtain it.
 */
export async function testFlowDatabase(dsl: FlowDsl, componentId: string, given: Record<string, unknown>, ports: FlowPorts): Promise<ConnectionTest> {
  const component = dsl.components[componentId];
  if (component?.obj.component_name !== exeSql.name) throw new DomainError("BAD_REQUEST", "flow.errors.componentNotFound", { id: componentId });
  const values = openSecrets(exeSql, givenOverStored(exeSql, component.obj.params, given), ports.openSecret);
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

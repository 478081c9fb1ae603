import { DomainError } from "../platform/errors";
import { isSecret, type ParamSpec } from "../platform/param-spec";
import type { SecretBox } from "../platform/secret-box";
import { isPlainObject } from "../platform/plain-object";
import type { ComponentDefinition } from "./component";
import { componentNamed } from "./components";
import type { FlowDsl } from "./dsl";

/**
 * The secrets a flow holds (its components' params of type "secret": API keys, a database password, an HTTP
 * tool's headers). They are stored sealed with the server key (platform/secret-box.ts, as model credentials are),
 * every read shows them masked, a file carries none, and only a run opens them (the `openSecret` port).
 *
 * A secret param's value is one of:
 * - "" (not set);
 * - `SEALED_PREFIX` + the sealed text (set; what is stored);
 * - SECRET_MASK: what every reader sees of a set secret; sent back unchanged by the editor, it keeps the stored one;
 * - SECRET_NEEDED: a secret was set but is not known here (a file, a copy to another tenant, an address that changed):
 *   validation asks for it (`flow.errors.secretNeeded`) until it is typed;
 * - any other text: typed by its user (or stored before secrets were sealed: it is sealed on the flow's next save).
 */

export const SECRET_MASK = "••••••••";
export const SECRET_NEEDED = "<secret needed>";
const SEALED_PREFIX = "sealed:";

type SecretState = "unset" | "sealed" | "mask" | "needed" | "plain";

function stateOf(value: unknown): SecretState {
  if (value === undefined || value === null || value === "") return "unset";
  // A value of another type (a file's headers as an object) is a secret all the same: sealed as its JSON text.
  if (typeof value !== "string") return "plain";
  if (value === SECRET_MASK) return "mask";
  if (value === SECRET_NEEDED) return "needed";
  return value.startsWith(SEALED_PREFIX) ? "sealed" : "plain";
}

/** Whether a secret param holds a secret (sealed or typed), whose text a reader must not see. */
const isSet = (state: SecretState) => state === "sealed" || state === "plain";

export function secretSpecs(definition: Pick<ComponentDefinition, "params"> | undefined): ParamSpec[] {
  return (definition?.params ?? []).filter(isSecret);
}

/** The DSL with each secret param's value replaced as `replace` says (a copy; components no registry knows are left as they are). */
function mapSecrets(dsl: FlowDsl, replace: (value: unknown, componentId: string, spec: ParamSpec) => unknown): FlowDsl {
  const copy = structuredClone(dsl);
  if (!isPlainObject(copy.components)) return copy;
  for (const [id, component] of Object.entries(copy.components)) {
    if (!isPlainObject(component?.obj) || !isPlainObject(component.obj.params)) continue;
    for (const spec of secretSpecs(componentNamed(String(component.obj.component_name)))) {
      const params = component.obj.params;
      if (params[spec.key] !== undefined) params[spec.key] = replace(params[spec.key], id, spec);
    }
  }
  return copy;
}

/** What every reader sees of a flow's DSL (GraphQL, the service API, versions): its secrets masked. */
export function maskSecrets(dsl: FlowDsl): FlowDsl {
  return mapSecrets(dsl, (value) => (isSet(stateOf(value)) ? SECRET_MASK : value));
}

/** The DSL a file carries (an export, a copy to another tenant): every secret that was set is needed again. */
export function dropSecrets(dsl: FlowDsl): FlowDsl {
  return mapSecrets(dsl, (value) => (stateOf(value) === "unset" ? value : SECRET_NEEDED));
}

/** The params whose text the param checks can read: a sealed, masked or needed secret is left out (its text is not known here). */
export function checkableParams(definition: Pick<ComponentDefinition, "params">, params: Record<string, unknown>): Record<string, unknown> {
  const hidden = secretSpecs(definition).filter((spec) => !["unset", "plain"].includes(stateOf(params[spec.key])));
  if (hidden.length === 0) return params;
  const checkable = { ...params };
  for (const spec of hidden) delete checkable[spec.key];
  return checkable;
}

/** The secret params that wait for their secret to be typed again. */
export function neededSecrets(definition: Pick<ComponentDefinition, "params">, params: Record<string, unknown>): string[] {
  return secretSpecs(definition)
    .filter((spec) => stateOf(params[spec.key]) === "needed")
    .map((spec) => spec.key);
}

/** Whether the params that say where a component's secrets go (`secretsGoTo`) are the same in both. */
export function sameDestination(definition: Pick<ComponentDefinition, "secretsGoTo"> | undefined, a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return (definition?.secretsGoTo ?? []).every((key) => String(a[key] ?? "").trim() === String(b[key] ?? "").trim());
}

/**
 * The params of a stored component with the editor's form over them (a debug run, the database Test): a secret the
 * form leaves empty or masked is the stored one, as long as the form sends it where the stored params did.
 */
export function givenOverStored(definition: Pick<ComponentDefinition, "params" | "secretsGoTo"> | undefined, stored: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...stored, ...given };
  const sameAddress = sameDestination(definition, stored, merged);
  for (const spec of secretSpecs(definition)) {
    const state = stateOf(given[spec.key]);
    if (state === "mask" || state === "unset") merged[spec.key] = sameAddress ? (stored[spec.key] ?? "") : "";
  }
  return merged;
}

/** Seals and opens flow secrets with the server key. */
export class FlowSecrets {
  constructor(private readonly box: SecretBox) {}

  private seal(value: unknown): string {
    return `${SEALED_PREFIX}${this.box.seal(typeof value === "string" ? value : JSON.stringify(value))}`;
  }

  /**
   * The DSL to store from one a client sent (the editor, the service API, a file), over the one stored (none for a
   * new flow). A typed secret is sealed; the mask keeps the stored secret of the same component and param, as long
   * as that component still sends it where it did (`secretsGoTo`: another database host must not receive the
   * password); otherwise the secret is needed again. A client never holds a sealed value, so whatever it sends that
   * looks like one is a typed text like any other.
   */
  sealGiven(given: FlowDsl, stored: FlowDsl | null): FlowDsl {
    return mapSecrets(given, (value, id, spec) => {
      const state = stateOf(value);
      if (state === "unset" || state === "needed") return value;
      if (state !== "mask") return this.seal(value);
      const before = stored?.components?.[id]?.obj;
      const beforeState = stateOf(before?.params?.[spec.key]);
      const definition = componentNamed(String(before?.component_name));
      const now = given.components[id].obj;
      if (!before || before.component_name !== now.component_name || !isSet(beforeState) || !sameDestination(definition, before.params, now.params)) return SECRET_NEEDED;
      return this.sealStoredValue(before.params[spec.key]);
    });
  }

  /** A stored DSL stored again (a version restored, a copy in the same tenant): secrets stored before sealing existed are sealed now. */
  sealStored(dsl: FlowDsl): FlowDsl {
    return mapSecrets(dsl, (value) => this.sealStoredValue(value));
  }

  private sealStoredValue(value: unknown): unknown {
    return stateOf(value) === "plain" ? this.seal(value) : value;
  }

  /** A stored secret's text, for the run that sends it; a secret not set (or needed) is empty. */
  open(value: unknown): string {
    const state = stateOf(value);
    if (state === "sealed") {
      try {
        return this.box.open((value as string).slice(SEALED_PREFIX.length));
      } catch {
        // Sealed under another key (a database moved without its server key, SECRET_KEY changed): only typing it again helps.
        throw new DomainError("BAD_REQUEST", "flow.errors.secretUnreadable");
      }
    }
    if (state !== "plain") return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  }
}

/** The params as a component runs with them: its secrets opened by the run's port (without one, as they are: tests' own values). */
export function openSecrets(definition: Pick<ComponentDefinition, "params">, params: Record<string, unknown>, openSecret: ((value: unknown) => string) | undefined): Record<string, unknown> {
  const specs = secretSpecs(definition);
  if (!openSecret || specs.length === 0) return params;
  const opened = { ...params };
  for (const spec of specs) if (opened[spec.key] !== undefined) opened[spec.key] = openSecret(opened[spec.key]);
  return opened;
}

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DomainError } from "../../platform/errors";
import { LANGUAGES, LOCALES_DIR } from "../../platform/messages";
import { messageKeysOf, specProblems } from "../../platform/param-spec";
import { componentText, type ComponentDefinition } from "../component";
import type { FlowPorts } from "../ports";
import { testPorts } from "./run-component";

/**
 * What the tests of the data and translation components share: ports that send a component to a local server
 * standing in for its vendor, a fetch port that only records where a component would go (to check the vendor's
 * real hosts without reaching them), and checks that a failure is a DomainError told in every language.
 */

const texts = new Map(LANGUAGES.map((locale) => [locale, JSON.parse(readFileSync(join(LOCALES_DIR, `${locale}.json`), "utf8")) as Record<string, unknown>]));

function textOf(locale: string, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined), texts.get(locale as never));
}

/** The keys among `keys` that some language lacks, with that language. */
export function untranslated(keys: Iterable<string>): string[] {
  return [...keys].flatMap((key) => LANGUAGES.filter((locale) => typeof textOf(locale, key) !== "string" || (textOf(locale, key) as string).trim() === "").map((locale) => `${locale}: ${key}`));
}

/** Everything a component's description names: its texts and its params' labels, help and options. */
export function descriptionProblems(component: ComponentDefinition): string[] {
  const keys = [componentText.label(component.name), componentText.description(component.name), ...messageKeysOf(component.params)];
  return [...specProblems(component.params), ...untranslated(keys)];
}

/** Ports that send `component` to a local server. */
export function portsFor(component: string, url: string): FlowPorts {
  return testPorts({ baseUrls: { [component]: url } });
}

/** Ports whose fetch records the URLs asked for and answers each with `answer()`. */
export function recordingPorts(answer: (url: URL) => Response): { ports: FlowPorts; urls: URL[] } {
  const urls: URL[] = [];
  const ports = testPorts({
    fetch: async (url) => {
      urls.push(new URL(url));
      return answer(new URL(url));
    },
  });
  return { ports, urls };
}

/** The DomainError `promise` rejects with; the test fails when it resolves, fails otherwise, or its text is missing somewhere. */
export async function failureOf(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  const failure = error as DomainError;
  expect(untranslated([failure.messageKey])).toEqual([]);
  return failure;
}

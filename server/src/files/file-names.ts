import { FieldChecks, Invalid } from "../platform/errors";

/** The names of files and folders: what a name may be, and how a taken one is made free. */

export const MAX_NAME_BYTES = 255;
/** The folder the documents uploaded straight into knowledge bases appear under (RAGFlow's convention). */
export const KNOWLEDGE_BASE_FOLDER = ".knowledgebase";

/** A name as given, trimmed; refused when empty, with a "/", ".", ".." or over 255 bytes. */
export function checkedName(name: string, field = "name"): string {
  const trimmed = name.trim();
  new FieldChecks()
    .check(trimmed.length > 0, field, "errors.file.nameRequired")
    .check(!trimmed.includes("/") && !trimmed.includes("\\"), field, "errors.file.nameSlash")
    .check(trimmed !== "." && trimmed !== "..", field, "errors.file.nameInvalid", { name: trimmed })
    .check(Buffer.byteLength(trimmed) <= MAX_NAME_BYTES, field, "errors.file.nameTooLong", { max: MAX_NAME_BYTES })
    .throwIfAny();
  return trimmed;
}

/** The folders and name of an uploaded file's relative path ("a/b/report.pdf"), each checked as a name. */
export function pathSegments(path: string): string[] {
  const segments = path.split(/[\\/]/).map((s) => s.trim()).filter((s) => s.length > 0);
  if (segments.length === 0) throw Invalid([{ field: "file", messageKey: "errors.file.nameRequired" }]);
  return segments.map((segment) => checkedName(segment, "file"));
}

/** `name`, or "name(1).ext", "name(2).ext"… the first not in `taken` (lower-case names); the one chosen is added to it. */
export function freeName(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  let candidate = name;
  for (let n = 1; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}(${n})${extension}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

import type { FieldProblems } from "../../errors";

/** What the S3 import dialog asks for; the keys are sent for this import only. */
export interface S3ConnectionValues {
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  accessKey: string;
  secretKey: string;
}

export const EMPTY_S3_CONNECTION: S3ConnectionValues = { endpoint: "", region: "", bucket: "", prefix: "", accessKey: "", secretKey: "" };

const REQUIRED: (keyof S3ConnectionValues)[] = ["endpoint", "bucket", "accessKey", "secretKey"];

/** The checks made before asking the server: the required fields, and an endpoint that is an http(s) address. */
export function s3ConnectionProblems(values: S3ConnectionValues): FieldProblems {
  const problems: FieldProblems = {};
  for (const field of REQUIRED) if (!values[field].trim()) problems[field] = { key: `file.s3.required.${field}` };
  const endpoint = values.endpoint.trim();
  if (endpoint && !isHttpAddress(endpoint)) problems.endpoint = { key: "file.s3.endpointInvalid" };
  return problems;
}

function isHttpAddress(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The connection as sent: trimmed, with an empty region or prefix left out (the server has their defaults). */
export function s3ConnectionInput(values: S3ConnectionValues) {
  const trimmed = (value: string) => value.trim() || null;
  return {
    endpoint: values.endpoint.trim(),
    region: trimmed(values.region),
    bucket: values.bucket.trim(),
    prefix: trimmed(values.prefix),
    accessKey: values.accessKey.trim(),
    // A secret is sent as typed: spaces may be part of it.
    secretKey: values.secretKey,
  };
}

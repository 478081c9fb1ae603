import { beforeAll, expect, jest, test } from "@jest/globals";

// The transfers read the signed-in user's token from the browser's storage, which Node has not; these tests need none.
jest.mock("../session/authStore", () => ({ authStore: { getCredential: () => null } }));

let describeTransferError: typeof import("./documentTransfer").describeTransferError;
let formatBytes: typeof import("./documentTransfer").formatBytes;
let TransferError: typeof import("./documentTransfer").TransferError;
beforeAll(async () => {
  ({ describeTransferError, formatBytes, TransferError } = await import("./documentTransfer"));
});

/** What an upload or download failure and a file's size read as. */

const number = (value: number, decimals?: number) => (decimals === undefined ? String(value) : value.toFixed(decimals));
const KNOWN = new Set(["httpStatus.400", "httpStatus.413", "httpStatus.500"]);
const t = (key: string) => `<${key}>`;
const exists = (key: string) => KNOWN.has(key);

test("sizes read in B, KB or MB", () => {
  expect(formatBytes(512, number)).toBe("512 B");
  expect(formatBytes(1536, number)).toBe("1.5 KB");
  expect(formatBytes(10 * 1024 * 1024, number)).toBe("10 MB");
});

test("a refused transfer reads its HTTP status's text, except for 400 and 500 whose message says more", () => {
  expect(describeTransferError(new TransferError(413, "too large"), t, exists, "errors.fileError")).toBe("<httpStatus.413>");
  expect(describeTransferError(new TransferError(400, "The file type is not supported."), t, exists, "errors.fileError")).toBe("The file type is not supported.");
  expect(describeTransferError(new TransferError(500, ""), t, exists, "errors.fileError")).toBe("<errors.fileError>");
});

test("no answer at all is a network anomaly, and any other failure the fallback", () => {
  expect(describeTransferError(new TransferError(0, ""), t, exists, "errors.fileError")).toBe("<errors.networkAnomaly>");
  expect(describeTransferError(new Error("boom"), t, exists, "errors.fileError")).toBe("<errors.fileError>");
});

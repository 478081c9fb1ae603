import { expect, test } from "@jest/globals";
import { EMPTY_S3_CONNECTION, s3ConnectionInput, s3ConnectionProblems } from "./s3Connection";

const filled = { endpoint: "http://127.0.0.1:9000", region: "", bucket: "reports", prefix: "", accessKey: "minio", secretKey: "minio123" };

test("the endpoint, bucket and both keys are required, each named at its field", () => {
  expect(s3ConnectionProblems(EMPTY_S3_CONNECTION)).toEqual({
    endpoint: { key: "file.s3.required.endpoint" },
    bucket: { key: "file.s3.required.bucket" },
    accessKey: { key: "file.s3.required.accessKey" },
    secretKey: { key: "file.s3.required.secretKey" },
  });
  expect(s3ConnectionProblems(filled)).toEqual({});
});

test("an endpoint that is not an http(s) address is refused before anything is sent", () => {
  expect(s3ConnectionProblems({ ...filled, endpoint: "ftp://example.com" })).toEqual({ endpoint: { key: "file.s3.endpointInvalid" } });
  expect(s3ConnectionProblems({ ...filled, endpoint: "s3.amazonaws.com" })).toEqual({ endpoint: { key: "file.s3.endpointInvalid" } });
});

test("what is sent is trimmed, with an empty region and prefix left to the server's defaults, and the secret as typed", () => {
  expect(s3ConnectionInput({ ...filled, endpoint: " http://127.0.0.1:9000 ", prefix: " 2024/ ", secretKey: " s3cret " })).toEqual({
    endpoint: "http://127.0.0.1:9000",
    region: null,
    bucket: "reports",
    prefix: "2024/",
    accessKey: "minio",
    secretKey: " s3cret ",
  });
});

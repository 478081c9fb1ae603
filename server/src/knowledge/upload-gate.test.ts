import { UploadGate } from "./upload-gate";

const MiB = 1024 * 1024;

describe("the upload gate", () => {
  it("lets in at most the process's bound of uploads at once, whichever tenants send them", () => {
    const gate = new UploadGate({ perProcess: 3, perTenant: 2 });
    const passes = [gate.enter("a"), gate.enter("b"), gate.enter("c")];
    expect(() => gate.enter("d")).toThrow(expect.objectContaining({ kind: "TOO_MANY_REQUESTS", messageKey: "errors.knowledge.tooManyUploads" }));
    passes[1].leave();
    passes[1].leave(); // leaving twice frees one place, not two
    const again = gate.enter("d");
    expect(() => gate.enter("e")).toThrow(expect.objectContaining({ kind: "TOO_MANY_REQUESTS" }));
    again.leave();
  });

  it("lets in at most the tenant's bound of one tenant's uploads, while other tenants still get in", () => {
    const gate = new UploadGate({ perProcess: 10, perTenant: 2 });
    gate.enter("a");
    const second = gate.enter("a");
    expect(() => gate.enter("a")).toThrow(expect.objectContaining({ kind: "TOO_MANY_REQUESTS" }));
    expect(() => gate.enter("b")).not.toThrow();
    second.leave();
    expect(() => gate.enter("a")).not.toThrow();
  });

  it("counts the bytes of a tenant's uploads under way against its quota until they leave", () => {
    const gate = new UploadGate({ perProcess: 10, perTenant: 10, tenantQuotaBytes: 10 * MiB });
    const first = gate.enter("a");
    const second = gate.enter("a");
    first.take(4 * MiB, 2 * MiB);
    expect(() => second.take(5 * MiB, 2 * MiB)).toThrow(expect.objectContaining({ kind: "INSUFFICIENT_STORAGE", messageKey: "errors.knowledge.storageQuotaExceeded", params: { quota: 10 } }));
    second.take(4 * MiB, 2 * MiB);
    second.giveBack(4 * MiB); // a file that failed is not counted any more
    second.take(4 * MiB, 2 * MiB);
    // Once the first upload's documents are in the database, its bytes are in the stored total instead.
    first.leave();
    expect(() => second.take(2 * MiB, 6 * MiB)).toThrow(expect.objectContaining({ kind: "INSUFFICIENT_STORAGE" }));
    second.take(1 * MiB, 5 * MiB);
    expect(() => gate.enter("b").take(20 * MiB, 0)).toThrow(expect.objectContaining({ kind: "INSUFFICIENT_STORAGE" }));
  });

  it("has no quota unless one is configured", () => {
    const pass = new UploadGate({ perProcess: 1, perTenant: 1 }).enter("a");
    expect(() => pass.take(1024 * 1024 * MiB, 1024 * 1024 * MiB)).not.toThrow();
  });
});

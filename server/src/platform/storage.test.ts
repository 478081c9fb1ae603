import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import S3rver from "s3rver";
import { DiskObjectStore, ObjectNotFound, S3ObjectStore, type ObjectStore } from "./storage";

const MiB = 1024 * 1024;

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A body that fails before its first byte. */
function failingAtOnce(): Readable {
  return new Readable({
    read() {
      this.destroy(new Error("client went away"));
    },
  });
}

/** A body that delivers `good` bytes and then fails, as an upload whose client disconnects midway. */
function failingMidway(good: Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(good);
      } else {
        this.destroy(new Error("client went away"));
      }
    },
  });
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

interface Implementation {
  name: string;
  setup(): Promise<ObjectStore>;
  teardown(): Promise<void>;
}

let diskRoot: string;
const disk: Implementation = {
  name: "disk object store",
  setup: async () => {
    diskRoot = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-objects-"));
    // The store's root does not have to exist yet: DATA_DIR/objects appears with the first upload.
    return new DiskObjectStore(path.join(diskRoot, "objects"));
  },
  teardown: async () => {
    fs.rmSync(diskRoot, { recursive: true, force: true });
  },
};

let s3rver: S3rver | undefined;
let s3Dir: string;
const s3: Implementation = {
  name: "S3 object store (s3rver)",
  setup: async () => {
    s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-s3rver-"));
    s3rver = new S3rver({ port: 0, address: "127.0.0.1", directory: s3Dir, silent: true });
    const { port } = await s3rver.run();
    // No bucket is configured in s3rver: the store creates it on first use.
    return new S3ObjectStore({
      endPoint: "127.0.0.1",
      port,
      useSSL: false,
      accessKey: "S3RVER",
      secretKey: "S3RVER",
      bucket: "cairn-test",
      region: "us-east-1",
    });
  },
  teardown: async () => {
    await s3rver?.close();
    fs.rmSync(s3Dir, { recursive: true, force: true });
  },
};

describe.each([disk, s3])("$name", (implementation) => {
  let store: ObjectStore;

  beforeAll(async () => {
    store = await implementation.setup();
  });
  afterAll(() => implementation.teardown());

  test("binary data comes back byte for byte, through get and getBuffer", async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i)); // every byte value, NUL and 0xFF included
    const stored = await store.put("tenant-a/raw/all-bytes.bin", bytes, "application/octet-stream");

    expect(stored).toEqual({ key: "tenant-a/raw/all-bytes.bin", size: 256, contentType: "application/octet-stream" });
    expect(await store.getBuffer("tenant-a/raw/all-bytes.bin")).toEqual(bytes);
    expect(await read(await store.get("tenant-a/raw/all-bytes.bin"))).toEqual(bytes);
    expect(await store.stat("tenant-a/raw/all-bytes.bin")).toMatchObject({ key: "tenant-a/raw/all-bytes.bin", size: 256 });
  });

  test("a 12 MiB upload sent as a stream is stored whole", async () => {
    const big = randomBytes(12 * MiB);
    // Delivered in 1 MiB pieces, as an HTTP upload arrives.
    const pieces = Array.from({ length: 12 }, (_, i) => big.subarray(i * MiB, (i + 1) * MiB));

    const stored = await store.put("tenant-a/kb-1/large.pdf", Readable.from(pieces), "application/pdf");

    expect(stored.size).toBe(12 * MiB);
    expect((await store.stat("tenant-a/kb-1/large.pdf"))?.size).toBe(12 * MiB);
    expect((await store.getBuffer("tenant-a/kb-1/large.pdf")).equals(big)).toBe(true);
  });

  test("an empty object is an object", async () => {
    await store.put("tenant-a/empty.txt", Buffer.alloc(0));

    expect(await store.stat("tenant-a/empty.txt")).toMatchObject({ size: 0 });
    expect(await store.getBuffer("tenant-a/empty.txt")).toEqual(Buffer.alloc(0));
  });

  test("a key that was never stored: stat says null and get throws ObjectNotFound", async () => {
    expect(await store.stat("tenant-a/never/stored.txt")).toBeNull();
    await expect(store.get("tenant-a/never/stored.txt")).rejects.toBeInstanceOf(ObjectNotFound);
    await expect(store.getBuffer("tenant-a/never/stored.txt")).rejects.toThrow('No stored object "tenant-a/never/stored.txt"');
  });

  test("a deleted object is gone, and deleting it again is harmless", async () => {
    await store.put("tenant-a/delete-me.txt", Buffer.from("short-lived"));

    await store.delete("tenant-a/delete-me.txt");

    expect(await store.stat("tenant-a/delete-me.txt")).toBeNull();
    await expect(store.get("tenant-a/delete-me.txt")).rejects.toBeInstanceOf(ObjectNotFound);
    await expect(store.delete("tenant-a/delete-me.txt")).resolves.toBeUndefined();
  });

  test("putting a key again replaces the object", async () => {
    await store.put("tenant-a/doc.md", Buffer.from("first version, rather long"));
    await store.put("tenant-a/doc.md", Buffer.from("second"));

    expect((await store.getBuffer("tenant-a/doc.md")).toString()).toBe("second");
    expect((await store.stat("tenant-a/doc.md"))?.size).toBe(6);
  });

  test("keys with folders keep objects apart, and a folder is not an object", async () => {
    await store.put("tenant-b/kb-1/a.txt", Buffer.from("b/1/a"));
    await store.put("tenant-b/kb-1/b.txt", Buffer.from("b/1/b"));
    await store.put("tenant-b/kb-2/a.txt", Buffer.from("b/2/a"));
    await store.put("tenant-c/kb-1/a.txt", Buffer.from("c/1/a"));

    await store.delete("tenant-b/kb-1/a.txt");

    expect(await store.stat("tenant-b/kb-1/a.txt")).toBeNull();
    expect((await store.getBuffer("tenant-b/kb-1/b.txt")).toString()).toBe("b/1/b");
    expect((await store.getBuffer("tenant-b/kb-2/a.txt")).toString()).toBe("b/2/a");
    expect((await store.getBuffer("tenant-c/kb-1/a.txt")).toString()).toBe("c/1/a");
    expect(await store.stat("tenant-b/kb-2")).toBeNull();
    await expect(store.getBuffer("tenant-b/kb-2")).rejects.toBeInstanceOf(ObjectNotFound);
  });

  test.each(["../x", "tenant-a/../../x", "/abs", "/etc/passwd", "a//b", "a/./b", "a/b/", ""])(
    "a key that could climb out of the store (%j) is refused by every operation",
    async (key) => {
      const refused = `Invalid object key "${key}"`;
      await expect(store.put(key, Buffer.from("nope"))).rejects.toThrow(refused);
      await expect(store.get(key)).rejects.toThrow(refused);
      await expect(store.getBuffer(key)).rejects.toThrow(refused);
      await expect(store.stat(key)).rejects.toThrow(refused);
      await expect(store.delete(key)).rejects.toThrow(refused);
    },
  );

  test("an upload that fails midway stores nothing and keeps the previous version", async () => {
    await store.put("tenant-a/report.docx", Buffer.from("version 1"));

    await expect(store.put("tenant-a/report.docx", failingMidway(randomBytes(64 * 1024)))).rejects.toThrow("client went away");
    await expect(store.put("tenant-a/never-arrived.docx", failingMidway(randomBytes(64 * 1024)))).rejects.toThrow("client went away");

    expect((await store.getBuffer("tenant-a/report.docx")).toString()).toBe("version 1");
    expect(await store.stat("tenant-a/never-arrived.docx")).toBeNull();
    await expect(store.get("tenant-a/never-arrived.docx")).rejects.toBeInstanceOf(ObjectNotFound);
  });

  if (implementation === disk) {
    test("on disk, a failed write leaves no partial file behind", async () => {
      const folder = path.join(diskRoot, "objects", "tenant-d");
      await store.put("tenant-d/kept.bin", Buffer.from("kept"));

      await expect(store.put("tenant-d/torn.bin", failingMidway(randomBytes(256 * 1024)))).rejects.toThrow("client went away");
      await expect(store.put("tenant-d/kept.bin", failingMidway(randomBytes(256 * 1024)))).rejects.toThrow("client went away");
      // Fails while the temporary file is still being opened.
      await expect(store.put("tenant-d/empty-handed.bin", failingAtOnce())).rejects.toThrow("client went away");

      expect(filesUnder(folder)).toEqual(["kept.bin"]);
      expect(fs.readFileSync(path.join(folder, "kept.bin"), "utf8")).toBe("kept");
    });

    test("on disk, objects are files only their owner can read, in folders only their owner can enter", async () => {
      await store.put("tenant-f/kb/from-buffer.txt", Buffer.from("private"));
      await store.put("tenant-f/kb/from-stream.txt", Readable.from([Buffer.from("private too")]));

      const mode = (relative: string) => fs.statSync(path.join(diskRoot, "objects", relative)).mode & 0o777;
      expect([mode("."), mode("tenant-f"), mode("tenant-f/kb")]).toEqual([0o700, 0o700, 0o700]);
      expect([mode("tenant-f/kb/from-buffer.txt"), mode("tenant-f/kb/from-stream.txt")]).toEqual([0o600, 0o600]);
    });

    test("on disk, an object's name reaches the disk before put resolves: its folder is flushed after the rename, and so is each folder made for it", async () => {
      const objects = path.join(diskRoot, "objects");
      await store.put("tenant-g/first.txt", Buffer.from("makes the store's root"));
      const target = path.join(objects, "tenant-g", "kb", "file.txt");
      // Which folders were opened to be flushed, and whether the object had its name by then.
      const flushed: { folder: string; named: boolean }[] = [];
      const originalOpen = fsp.open;
      const open = jest.spyOn(fsp, "open").mockImplementation(async (file, flags, mode) => {
        if (flags === "r") flushed.push({ folder: path.resolve(String(file)), named: fs.existsSync(target) });
        return originalOpen(file, flags, mode);
      });
      try {
        await store.put("tenant-g/kb/file.txt", Buffer.from("durable"));
      } finally {
        open.mockRestore();
      }
      expect(flushed).toEqual([
        { folder: path.join(objects, "tenant-g"), named: false },
        { folder: path.join(objects, "tenant-g", "kb"), named: true },
      ]);
    });

    test("on disk, objects are files under the store's root and nowhere else", async () => {
      await store.put("tenant-e/kb/file.txt", Buffer.from("here"));

      expect(fs.readFileSync(path.join(diskRoot, "objects", "tenant-e", "kb", "file.txt"), "utf8")).toBe("here");
      expect(filesUnder(diskRoot).every((file) => file.startsWith(`objects${path.sep}`))).toBe(true);
    });
  }
});

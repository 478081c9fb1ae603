import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { maskSecret, SecretBox } from "./secret-box";

describe("the secret box", () => {
  it("opens what it sealed, and the sealed text shows nothing of the secret", () => {
    const box = SecretBox.fromKey("a".repeat(64));
    const sealed = box.seal("sk-live-1234567890");
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("1234567890");
    expect(box.open(sealed)).toBe("sk-live-1234567890");
  });

  it("seals the same secret differently each time", () => {
    const box = SecretBox.fromKey("b".repeat(64));
    expect(box.seal("same")).not.toBe(box.seal("same"));
  });

  it("refuses a sealed text that was tampered with or sealed under another key", () => {
    const sealed = SecretBox.fromKey("c".repeat(64)).seal("secret");
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}${sealed.slice(-1)}`;
    expect(() => SecretBox.fromKey("c".repeat(64)).open(tampered)).toThrow();
    expect(() => SecretBox.fromKey("d".repeat(64)).open(sealed)).toThrow();
  });

  it("generates a key file once, readable by its owner only, in a folder only its owner can enter, and reuses it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-key-"));
    const file = path.join(dir, "keys", "secret.key");
    try {
      const sealed = SecretBox.fromFile(file).seal("kept");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      expect(SecretBox.fromFile(file).open(sealed)).toBe("kept");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("uses a key file an operator wrote, and names the file when its key is malformed", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-key-"));
    try {
      fs.writeFileSync(path.join(dir, "given.key"), `${"e".repeat(64)}\n`);
      expect(SecretBox.fromFile(path.join(dir, "given.key")).open(SecretBox.fromKey("e".repeat(64)).seal("same key"))).toBe("same key");
      fs.writeFileSync(path.join(dir, "short.key"), "too short");
      expect(() => SecretBox.fromFile(path.join(dir, "short.key"))).toThrow(`The key file ${path.join(dir, "short.key")} must hold 32 bytes`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("masks secrets for display", () => {
    expect(maskSecret("sk-abcdefghijklmnop")).toBe("sk-••••••••mnop");
    expect(maskSecret("short")).toBe("••••••••");
    expect(maskSecret("")).toBe("");
  });
});

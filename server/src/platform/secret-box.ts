import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const KEY_FILE = "secret.key";
const VERSION = "v1";

/**
 * Encrypts secrets at rest (model provider keys) with AES-256-GCM under the server key: SECRET_KEY from
 * the configuration, or a key generated into DATA_DIR on first start. Losing the key loses the secrets,
 * so processes that share a database must share the key (docker-compose shares DATA_DIR's volume).
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(material: string): SecretBox {
    const key = /^[0-9a-f]{64}$/i.test(material) ? Buffer.from(material, "hex") : Buffer.from(material, "base64");
    if (key.length !== 32) throw new Error("SECRET_KEY must be 32 bytes, as 64 hex characters or base64");
    return new SecretBox(key);
  }

  /** The key of DATA_DIR, created (readable by its owner only) when it does not exist yet. */
  static fromDataDir(dataDir: string): SecretBox {
    const file = path.join(dataDir, KEY_FILE);
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString("base64"), { flag: "wx", mode: 0o600 });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
    return SecretBox.fromKey(fs.readFileSync(file, "utf8").trim());
  }

  /** "v1.<iv>.<tag>.<ciphertext>", all base64url. */
  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split(".");
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Not a sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  }
}

/** How a secret is shown once stored: enough to recognise it, never enough to use it. */
export function maskSecret(secret: string): string {
  if (secret === "") return "";
  if (secret.length <= 8) return "••••••••";
  return `${secret.slice(0, 3)}••••••••${secret.slice(-4)}`;
}

import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from "./private-files";

const VERSION = "v1";

/**
 * Encrypts secrets at rest (model provider keys, flow components' keys and passwords) with AES-256-GCM under the server key: SECRET_KEY from
 * the configuration, or the key file (SECRET_KEY_FILE, by default DATA_DIR/secret.key), generated on first
 * start. Losing the key loses the secrets, so processes that share a database must share the key
 * (docker-compose shares DATA_DIR's volume).
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(material: string): SecretBox {
    const key = /^[0-9a-f]{64}$/i.test(material) ? Buffer.from(material, "hex") : Buffer.from(material, "base64");
    if (key.length !== 32) throw new Error("SECRET_KEY must be 32 bytes, as 64 hex characters or base64");
    return new SecretBox(key);
  }

  /** The server key of the configuration: SECRET_KEY, else the key file. */
  static fromConfig(config: { secretKey?: string; secretKeyFile: string }): SecretBox {
    return config.secretKey ? SecretBox.fromKey(config.secretKey) : SecretBox.fromFile(config.secretKeyFile);
  }

  /**
   * The key in `file`, generated there (readable by its owner only) when it does not exist yet. Only a folder
   * that is missing is created (owner-only); an existing one, such as /run/secrets, is left as its owner set it.
   */
  static fromFile(file: string): SecretBox {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    try {
      fs.writeFileSync(file, randomBytes(32).toString("base64"), { flag: "wx", mode: PRIVATE_FILE_MODE });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
    try {
      return SecretBox.fromKey(fs.readFileSync(file, "utf8").trim());
    } catch (error) {
      throw new Error(`The key file ${file} must hold 32 bytes, as 64 hex characters or base64: ${(error as Error).message}`);
    }
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

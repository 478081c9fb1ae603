import path from "node:path";
import { ConfigError, loadConfig } from "./config";

describe("configuration", () => {
  it("runs with nothing set: port 9380, ./data, every part embedded", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 9380, dataDir: path.resolve("data"), jobConcurrency: 2, registrationEnabled: true });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.s3).toBeUndefined();
  });

  it("switches to external parts from their URLs", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://cairn:pw@db:5432/cairn",
      REDIS_URL: "redis://redis:6379",
      S3_ENDPOINT: "http://minio:9000",
      S3_ACCESS_KEY: "minio",
      S3_SECRET_KEY: "minio-secret",
    });
    expect(config.databaseUrl).toBe("postgres://cairn:pw@db:5432/cairn");
    expect(config.s3).toEqual({
      endPoint: "minio",
      port: 9000,
      useSSL: false,
      accessKey: "minio",
      secretKey: "minio-secret",
      bucket: "cairn",
      region: "us-east-1",
    });
  });

  it("names every bad value in one error", () => {
    const attempt = () =>
      loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", S3_ENDPOINT: "http://minio:9000", S3_BUCKET: "A", REGISTRATION_ENABLED: "maybe" });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'PORT must be a whole number from 0 to 65535, got "eighty"',
        'DATABASE_URL must start with postgres:// or postgresql://, got "mysql://…"',
        "S3_ACCESS_KEY is required when S3_ENDPOINT is set",
        "S3_SECRET_KEY is required when S3_ENDPOINT is set",
        'S3_BUCKET must be 3 to 63 lower-case letters, digits, dots or hyphens, got "A"',
        'REGISTRATION_ENABLED must be true or false, got "maybe"',
      ]);
    }
  });

  it("reads the registration limits: open to all and uncapped by default, domains lower-cased and checked", () => {
    expect(loadConfig({})).toMatchObject({ registrationEmailDomains: [], registrationMaxUsers: 0 });
    expect(loadConfig({ REGISTRATION_EMAIL_DOMAINS: " Example.ORG, @team.example.org ,", REGISTRATION_MAX_USERS: "500" })).toMatchObject({
      registrationEmailDomains: ["example.org", "team.example.org"],
      registrationMaxUsers: 500,
    });
    expect(() => loadConfig({ REGISTRATION_EMAIL_DOMAINS: "example.org, not a domain" })).toThrow(
      'REGISTRATION_EMAIL_DOMAINS: "not a domain" is not a domain name such as example.com',
    );
  });
});

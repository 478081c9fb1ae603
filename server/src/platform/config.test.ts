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

  it("keeps GraphQL introspection and the explorer for development, and off in production unless asked for", () => {
    expect(loadConfig({}).graphqlIntrospection).toBe(true);
    expect(loadConfig({ NODE_ENV: "production" })).toMatchObject({ production: true, graphqlIntrospection: false });
    expect(loadConfig({ NODE_ENV: "production", GRAPHQL_INTROSPECTION: "true" }).graphqlIntrospection).toBe(true);
    expect(loadConfig({ GRAPHQL_INTROSPECTION: "off" }).graphqlIntrospection).toBe(false);
  });

  it("gives every GraphQL operation a budget and heavy work fair slots, both adjustable", () => {
    expect(loadConfig({})).toMatchObject({
      graphqlBudget: { maxDepth: 12, maxAliases: 20, maxCost: 5000, timeoutMs: 30_000 },
      heavyWork: { slots: 4, slotsPerTenant: 2 },
    });
    expect(loadConfig({ GRAPHQL_MAX_COST: "20000", GRAPHQL_TIMEOUT_SECONDS: "5", HEAVY_WORK_SLOTS: "8" })).toMatchObject({
      graphqlBudget: { maxCost: 20_000, timeoutMs: 5000 },
      heavyWork: { slots: 8, slotsPerTenant: 2 },
    });
  });

  it("keeps deleted items in the recycle bin 30 days unless told; 0 turns the bin off, and a negative count is refused", () => {
    expect(loadConfig({}).recycleBinDays).toBe(30);
    expect(loadConfig({ RECYCLE_BIN_DAYS: "0" }).recycleBinDays).toBe(0);
    expect(() => loadConfig({ RECYCLE_BIN_DAYS: "-1" })).toThrow(/RECYCLE_BIN_DAYS must be a whole number from 0 to 3650/);
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

  it("keeps the hardening settings off or generous by default, and reads them when set", () => {
    const defaults = loadConfig({ DATA_DIR: "/srv/cairn" });
    expect(defaults).toMatchObject({ embedAllowedOrigins: [], secretKeyFile: path.resolve("/srv/cairn/secret.key"), uploads: { perProcess: 32, perTenant: 8 } });
    expect(defaults.uploads.tenantQuotaBytes).toBeUndefined();
    const set = loadConfig({
      EMBED_ALLOWED_ORIGINS: "https://intranet.example.com, https://*.example.org:8443",
      SECRET_KEY_FILE: "/run/secrets/cairn-key",
      UPLOADS_PER_PROCESS: "8",
      UPLOADS_PER_TENANT: "2",
      TENANT_STORAGE_QUOTA_MB: "500",
    });
    expect(set).toMatchObject({
      embedAllowedOrigins: ["https://intranet.example.com", "https://*.example.org:8443"],
      secretKeyFile: "/run/secrets/cairn-key",
      uploads: { perProcess: 8, perTenant: 2, tenantQuotaBytes: 500 * 1024 * 1024 },
    });
  });

  it("refuses an embed origin that is not an origin, a zero quota, and two sources of the server key", () => {
    try {
      loadConfig({ EMBED_ALLOWED_ORIGINS: "https://ok.example.com,example.com/path", TENANT_STORAGE_QUOTA_MB: "0", SECRET_KEY: "a".repeat(64), SECRET_KEY_FILE: "/run/secrets/key" });
      throw new Error("accepted");
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'EMBED_ALLOWED_ORIGINS must list origins such as https://example.com, separated by commas, got "example.com/path"',
        `TENANT_STORAGE_QUOTA_MB must be a whole number from 1 to ${1024 * 1024 * 1024}, got "0"`,
        "set SECRET_KEY or SECRET_KEY_FILE, not both",
      ]);
    }
  });

  it("believes X-Forwarded-For from loopback by default, and from the proxies listed in TRUST_PROXY, which it checks", () => {
    expect(loadConfig({}).trustProxy).toEqual(["loopback"]);
    expect(loadConfig({ TRUST_PROXY: " 172.16.0.0/12, 10.1.2.3 ,uniquelocal, fd00::/8" }).trustProxy).toEqual(["172.16.0.0/12", "10.1.2.3", "uniquelocal", "fd00::/8"]);
    try {
      loadConfig({ TRUST_PROXY: "10.0.0.0/33,proxy.example.com,true,10.0.0.1/8/1,::1/129" });
      throw new Error("accepted");
    } catch (error) {
      expect((error as ConfigError).problems).toEqual(
        ["10.0.0.0/33", "proxy.example.com", "true", "10.0.0.1/8/1", "::1/129"].map(
          (proxy) => `TRUST_PROXY must list addresses, ranges such as 172.16.0.0/12, or loopback, linklocal, uniquelocal, separated by commas, got "${proxy}"`,
        ),
      );
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

  it("offers an identity provider only when its client id and secret are both set, at the providers' own addresses by default", () => {
    expect(loadConfig({}).identityProviders).toEqual({ github: undefined, google: undefined, oidc: undefined });
    const config = loadConfig({
      AUTH_GITHUB_CLIENT_ID: "gh",
      AUTH_GITHUB_CLIENT_SECRET: "gh-secret",
      AUTH_GOOGLE_CLIENT_ID: "g",
      AUTH_GOOGLE_CLIENT_SECRET: "g-secret",
      AUTH_OIDC_ISSUER: "https://id.example.com/realms/staff",
      AUTH_OIDC_CLIENT_ID: "cairn",
      AUTH_OIDC_CLIENT_SECRET: "c-secret",
      PUBLIC_URL: "https://cairn.example.com/",
    });
    expect(config.identityProviders).toEqual({
      github: { clientId: "gh", clientSecret: "gh-secret", url: "https://github.com", apiUrl: "https://api.github.com" },
      google: { clientId: "g", clientSecret: "g-secret", issuer: "https://accounts.google.com" },
      oidc: { clientId: "cairn", clientSecret: "c-secret", issuer: "https://id.example.com/realms/staff", name: "OpenID Connect" },
    });
    expect(config.publicUrl).toBe("https://cairn.example.com");
    expect(() => loadConfig({ AUTH_GITHUB_CLIENT_ID: "gh", AUTH_OIDC_CLIENT_ID: "cairn", AUTH_OIDC_CLIENT_SECRET: "s" })).toThrow(
      /AUTH_GITHUB_CLIENT_SECRET is required when AUTH_GITHUB_CLIENT_ID is set[\s\S]*AUTH_OIDC_ISSUER is required when AUTH_OIDC_CLIENT_ID is set/,
    );
  });
});

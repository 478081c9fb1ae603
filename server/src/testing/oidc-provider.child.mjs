// A local OpenID Connect provider for the sign-in tests (Jest and Playwright), run as a process of its own because
// oidc-provider is an ES module. It is the library's quick-start setup (in-memory adapter, development keys, its
// development login form, where any login and any password sign in) and never part of the product.
//
//   OIDC_PORT           the port on 127.0.0.1; the issuer is http://127.0.0.1:<port>
//   OIDC_CLIENT_ID      the one client, with OIDC_CLIENT_SECRET
//   OIDC_REDIRECT_URIS  the client's redirect URIs, comma-separated
//   OIDC_ACCOUNTS       JSON { login: { email, email_verified, name } }; a login not listed is its own e-mail, verified
//
// Prints "oidc provider listening <issuer>" once it answers.
import Provider from "oidc-provider";

const port = Number(process.env.OIDC_PORT);
const issuer = `http://127.0.0.1:${port}`;
const accounts = JSON.parse(process.env.OIDC_ACCOUNTS || "{}");

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.OIDC_CLIENT_ID,
      client_secret: process.env.OIDC_CLIENT_SECRET,
      redirect_uris: (process.env.OIDC_REDIRECT_URIS || "").split(","),
      grant_types: ["authorization_code"],
      response_types: ["code"],
    },
  ],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  async findAccount(_ctx, login) {
    const account = accounts[login] ?? { email: login, email_verified: true, name: login.split("@")[0] };
    return { accountId: login, claims: async () => ({ sub: login, ...account }) };
  },
  // Consent is granted at once: the tests sign in, they do not study the provider's consent screen.
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope("openid email profile");
    await grant.save();
    return grant;
  },
});

provider.listen(port, "127.0.0.1", () => console.log(`oidc provider listening ${issuer}`));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));

import { Arg, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { signedIn, type GraphQLContext } from "../../graphql/context";
import { Identity } from "./identity.entity";

@ObjectType({ description: "An identity provider the login page offers a button for." })
class SignInProvider {
  @Field({ description: "github, google or oidc: the icon to show, and the provider's part of its URLs." })
  name: string;

  @Field({ description: "What the button names: GitHub, Google, or the configured name of the OpenID Connect provider." })
  label: string;

  @Field({ description: "Where the browser goes to sign in; add `redirect` (a path of this application), `remember=1` and `lng`." })
  startUrl: string;
}

@Resolver()
export class IdentityResolver {
  @Query(() => [SignInProvider], { description: "The identity providers this server signs in with; empty when none is configured. Open to everyone." })
  signInProviders(@Ctx() { services }: GraphQLContext): SignInProvider[] {
    return services.identitySignIn.enabledProviders().map(({ name, label }) => ({ name, label, startUrl: `/v1/auth/${name}/start` }));
  }

  @Query(() => [Identity], { description: "The identity-provider accounts linked to the signed-in user." })
  myIdentities(@Ctx() context: GraphQLContext): Promise<Identity[]> {
    return context.services.identitySignIn.linkedIdentities(signedIn(context));
  }

  @Mutation(() => Boolean, { description: "Unlinks a provider account; refused when it is the only way left to sign in (no password, no other linked account)." })
  async unlinkIdentity(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.identitySignIn.unlink(signedIn(context), id);
    return true;
  }
}

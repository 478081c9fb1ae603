import { Arg, Ctx, Field, ID, InputType, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { ApiToken } from "./api-token.entity";

@ObjectType()
class CreatedApiToken {
  @Field({ description: "The whole token. It is shown this once and cannot be read again." })
  token: string;

  @Field(() => ApiToken)
  apiToken: ApiToken;
}

@InputType()
class ApiTokenInput {
  @Field(() => Date, { nullable: true, description: "When the key stops working (in the future, at most ten years ahead); absent or null: never." })
  expiresAt?: Date | null;
}

@Resolver()
export class ApiTokenResolver {
  @Query(() => [ApiToken], { description: "The service-API keys of the current tenant, newest first." })
  apiTokens(@Ctx() context: GraphQLContext): Promise<ApiToken[]> {
    return context.services.apiTokens.list(signedIn(context));
  }

  @Mutation(() => CreatedApiToken, { description: "Only a password session can create keys: an API key cannot." })
  createApiToken(
    @Arg("input", () => ApiTokenInput, { nullable: true }) input: ApiTokenInput | null,
    @Ctx() context: GraphQLContext,
  ): Promise<CreatedApiToken> {
    return context.services.apiTokens.create(signedIn(context), { expiresAt: input?.expiresAt ?? null });
  }

  @Mutation(() => Boolean)
  async deleteApiToken(@Arg("id", () => ID) id: string, @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.apiTokens.delete(signedIn(context), id);
    return true;
  }
}

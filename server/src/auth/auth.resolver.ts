import { IsOptional, MaxLength } from "class-validator";
import { Arg, Ctx, Field, FieldResolver, InputType, Mutation, ObjectType, Query, Resolver, Root } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import { User } from "./user.entity";

@InputType()
class RegisterInput {
  @Field()
  @MaxLength(255)
  email: string;

  @Field()
  @MaxLength(100)
  nickname: string;

  @Field()
  @MaxLength(256)
  password: string;

  @Field({ nullable: true, description: "The interface language the account starts with: en (default), zh, zh-TRADITIONAL, id or es." })
  language?: string;
}

@InputType()
class LoginInput {
  @Field()
  @MaxLength(255)
  email: string;

  @Field()
  @MaxLength(256)
  password: string;

  @Field({ defaultValue: false, description: "Keep the session for SESSION_REMEMBER_DAYS instead of SESSION_TTL_HOURS." })
  remember: boolean;
}

@InputType()
class ChangePasswordInput {
  @Field(() => String, { nullable: true, description: "Required, unless the account has no password yet (made by an identity provider): then it sets the first one." })
  @IsOptional()
  @MaxLength(256)
  currentPassword?: string | null;

  @Field()
  @MaxLength(256)
  newPassword: string;

  @Field()
  @MaxLength(256)
  confirmPassword: string;

  @Field({ defaultValue: false, description: "Also delete every API key this user created." })
  revokeApiKeys: boolean;
}

@InputType({ description: "Only the fields given are changed. The e-mail address cannot change after registration." })
class ProfileInput {
  @Field({ nullable: true, description: "The username." })
  nickname?: string;

  @Field(() => String, { nullable: true, description: "A data URL of an image, or an empty string to remove the photo." })
  avatar?: string | null;

  @Field({ nullable: true, description: "Bright or Dark." })
  colorSchema?: string;

  @Field({ nullable: true, description: "An IANA time zone name, such as Europe/Paris." })
  timezone?: string;

  @Field({ nullable: true, description: "en, zh, zh-TRADITIONAL, id or es." })
  language?: string;
}

@ObjectType()
class AuthPayload {
  @Field({ description: "The bearer token: send it as `Authorization: Bearer <token>`, and as `authorization` in graphql-ws connection parameters." })
  token: string;

  @Field()
  expiresAt: Date;

  @Field(() => User)
  user: User;
}

@ObjectType({ description: "Whether accounts can be created here, as the sign-up page must tell before anyone fills it in." })
class SignUpPolicyType {
  @Field()
  open: boolean;

  @Field(() => String, { nullable: true, description: "disabled (by the operator) or full (the configured number of accounts is reached); null when open." })
  closedReason: string | null;

  @Field(() => [String], { description: "The e-mail domains that may sign up; empty: any." })
  emailDomains: string[];
}

@Resolver()
export class AuthResolver {
  @Query(() => User, { description: "The signed-in user." })
  me(@Ctx() context: GraphQLContext): Promise<User> {
    return context.services.auth.currentUser(signedIn(context));
  }

  @Query(() => SignUpPolicyType, { description: "Open to everyone, signed in or not." })
  signUpPolicy(@Ctx() { services }: GraphQLContext): Promise<SignUpPolicyType> {
    return services.auth.signUpPolicy();
  }

  @Mutation(() => AuthPayload, { description: "Creates an account and its personal tenant, and signs it in: the answer carries the session, as `login`'s does." })
  register(@Arg("input") input: RegisterInput, @Ctx() { services, clientAddress }: GraphQLContext): Promise<AuthPayload> {
    return services.auth.signUp(input, { address: clientAddress });
  }

  @Mutation(() => AuthPayload)
  login(@Arg("input") input: LoginInput, @Ctx() { services, clientAddress }: GraphQLContext): Promise<AuthPayload> {
    return services.auth.login(input, { address: clientAddress });
  }

  @Mutation(() => Boolean, { description: "Ends the current session; its token stops working at once." })
  async logout(@Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.auth.logout(signedIn(context));
    return true;
  }

  @Mutation(() => Boolean, { description: "Changes (or, for an account without one, sets) the password and signs out every other session; an API key cannot." })
  async changePassword(@Arg("input") input: ChangePasswordInput, @Ctx() context: GraphQLContext): Promise<boolean> {
    await context.services.auth.changePassword(signedIn(context), input);
    return true;
  }

  @Mutation(() => User)
  updateProfile(@Arg("input") input: ProfileInput, @Ctx() context: GraphQLContext): Promise<User> {
    return context.services.auth.updateProfile(signedIn(context), input);
  }
}

@Resolver(() => User)
export class UserFieldsResolver {
  @FieldResolver(() => Boolean, { description: "False for an account made by an identity provider until a password is set: changePassword then needs no current password." })
  hasPassword(@Root() user: User): boolean {
    return user.passwordHash !== null;
  }
}

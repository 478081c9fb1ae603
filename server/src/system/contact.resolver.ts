import { Ctx, Field, ObjectType, Query, Resolver } from "type-graphql";
import type { GraphQLContext } from "../graphql/context";
import type { ContactConfig } from "../platform/config";

@ObjectType({ description: "How to reach the operator of this Cairn, from its configuration (CONTACT_*); every part may be missing." })
class Contact implements ContactConfig {
  @Field(() => String, { nullable: true, description: "CONTACT_NAME: who runs this Cairn." })
  name?: string;

  @Field(() => String, { nullable: true, description: "CONTACT_EMAIL" })
  email?: string;

  @Field(() => String, { nullable: true, description: "CONTACT_URL: a support page or form (http or https)." })
  url?: string;

  @Field(() => String, { nullable: true, description: "CONTACT_MESSAGE: free text shown with them." })
  message?: string;
}

@Resolver()
export class ContactResolver {
  // Open to everyone: whoever cannot sign in is the first to need the operator.
  @Query(() => Contact, { description: "How to reach the operator of this Cairn. Open to everyone." })
  contact(@Ctx() { services }: GraphQLContext): Contact {
    return services.platform.config.contact;
  }
}

import { Arg, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { signedIn, type GraphQLContext } from "../graphql/context";
import type { BinListing } from "./bin.service";
import { WorkKind } from "./work-kind";

const DAY_MS = 24 * 60 * 60 * 1000;

@ObjectType({ description: "A deleted item waiting in the recycle bin." })
export class BinItem {
  @Field(() => ID, { description: "The bin entry's id: what restoring and purging take." })
  id: string;

  @Field(() => WorkKind)
  kind: WorkKind;

  @Field(() => ID, { description: "The deleted item's own id." })
  itemId: string;

  @Field({ description: "Its name when it was deleted." })
  name: string;

  @Field(() => String, { nullable: true, description: "Where it was: the knowledge base, folder or assistant it belonged to." })
  parentName: string | null;

  @Field({ description: "The nickname of the user who deleted it." })
  binnedBy: string;

  @Field()
  binnedAt: Date;

  @Field({ description: "When it is deleted forever." })
  purgeAt: Date;

  @Field(() => Int, { description: "Whole days left before it is deleted forever (0: today)." })
  daysLeft: number;

  @Field(() => Int, { description: "How many other items went into the bin with it (a folder's files, a file's documents)." })
  alsoBinned: number;
}

@ObjectType()
export class BinPage {
  @Field(() => [BinItem])
  items: BinItem[];

  @Field(() => Int)
  total: number;

  @Field(() => Int, { description: "How many days a deleted item stays in the bin (RECYCLE_BIN_DAYS); 0: deleting destroys at once." })
  retentionDays: number;
}

@ObjectType({ description: "An item brought back from the recycle bin." })
export class RestoredItem {
  @Field(() => ID)
  entryId: string;

  @Field(() => WorkKind)
  kind: WorkKind;

  @Field(() => ID)
  itemId: string;

  @Field({ description: "Its name now." })
  name: string;

  @Field(() => String, { nullable: true, description: "Its name when deleted, when that was taken meanwhile and it came back renamed." })
  previousName: string | null;
}

function present({ entry, binnedByName }: BinListing, now: Date): BinItem {
  const counts = entry.detail.counts ?? {};
  return {
    id: entry.id,
    kind: entry.kind,
    itemId: entry.itemId,
    name: entry.name,
    parentName: entry.detail.parentName ?? null,
    binnedBy: binnedByName,
    binnedAt: entry.binnedAt,
    purgeAt: entry.purgeAt,
    daysLeft: Math.max(0, Math.floor((entry.purgeAt.getTime() - now.getTime()) / DAY_MS)),
    alsoBinned: Object.values(counts).reduce((sum, n) => sum + n, 0),
  };
}

@Resolver()
export class BinResolver {
  @Query(() => BinPage, { description: "The recycle bin: what the user deleted, and everything deleted in the teams they own." })
  async recycleBin(
    @Ctx() context: GraphQLContext,
    @Arg("kind", () => WorkKind, { nullable: true }) kind: WorkKind | null,
    @Arg("search", () => String, { nullable: true }) search: string | null,
    @Arg("page", () => Int, { defaultValue: 1 }) page: number,
    @Arg("pageSize", () => Int, { defaultValue: 30 }) pageSize: number,
  ): Promise<BinPage> {
    const { bin } = context.services;
    const { items, total } = await bin.list(signedIn(context), { kind, search, page, pageSize });
    const now = new Date();
    return { items: items.map((item) => present(item, now)), total, retentionDays: bin.retentionDays };
  }

  @Query(() => Int, { description: "How many days a deleted item stays in the recycle bin; 0: deleting destroys at once (what delete confirmations say)." })
  recycleBinDays(@Ctx() context: GraphQLContext): number {
    signedIn(context);
    return context.services.bin.retentionDays;
  }

  @Mutation(() => [RestoredItem], { description: "Brings items back from the bin as they were; one whose name was taken meanwhile comes back renamed." })
  restoreFromBin(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[]): Promise<RestoredItem[]> {
    return context.services.bin.restore(signedIn(context), ids);
  }

  @Mutation(() => Int, { description: "Deletes items in the bin forever; answers how many were." })
  purgeFromBin(@Ctx() context: GraphQLContext, @Arg("ids", () => [ID]) ids: string[]): Promise<number> {
    return context.services.bin.purge(signedIn(context), ids);
  }

  @Mutation(() => Int, { description: "Deletes everything in the bin the user may see forever; answers how many items." })
  emptyRecycleBin(@Ctx() context: GraphQLContext): Promise<number> {
    return context.services.bin.empty(signedIn(context));
  }
}

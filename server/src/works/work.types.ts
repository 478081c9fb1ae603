import { GraphQLJSONObject } from "graphql-scalars";
import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { WorkKind } from "../bin/work-kind";

@ObjectType({ description: "A number that says how big a work is; `name` (documents, chunks, conversations, components, bytes, items) says of what." })
export class WorkCount {
  @Field()
  name: string;

  @Field(() => Float)
  value: number;
}

@ObjectType({ description: "What the signed-in user may do with a work from my space." })
export class WorkActions {
  @Field({ description: "Rename it (the kind's own rename)." })
  rename: boolean;

  @Field({ description: "Share it as its kind shares: a knowledge base's or flow's team permission, an assistant's share link. False for a kind that has no sharing." })
  share: boolean;

  @Field({ description: "Delete it (into the recycle bin)." })
  delete: boolean;
}

@ObjectType({ description: "Something the user made (or a teammate shared), as my space lists it." })
export class Work {
  @Field(() => WorkKind)
  kind: WorkKind;

  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => String, { nullable: true, description: "Its maker's own description, when it has one." })
  description: string | null;

  @Field(() => String, { nullable: true, description: "A kind's variety: a file's `folder` or `file`; null otherwise." })
  variant: string | null;

  @Field(() => ID, { nullable: true, description: "The folder a file or folder is in; null for other kinds." })
  parentId: string | null;

  @Field(() => [WorkCount])
  counts: WorkCount[];

  @Field({ description: "Its latest activity: its own last change, a knowledge base's latest document change, an assistant's latest conversation." })
  activityAt: Date;

  @Field({ description: "Shared with the team of its tenant (a team knowledge base or flow, a file in a team knowledge base)." })
  teamShared: boolean;

  @Field({ description: "Made by the signed-in user (not a teammate)." })
  mine: boolean;

  @Field(() => WorkActions)
  can: WorkActions;
}

@ObjectType()
export class WorkPage {
  @Field(() => [Work])
  items: Work[];

  @Field(() => Int)
  total: number;
}

@ObjectType({ description: "A document of a knowledge base's preview." })
export class WorkPreviewDocument {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => Int)
  chunkCount: number;

  @Field({ description: "Its parsing status, RAGFlow's run codes: 0 unstarted, 1 running, 2 cancelled, 3 done, 4 failed." })
  run: string;
}

@ObjectType({ description: "A message of an assistant's last conversation." })
export class WorkPreviewMessage {
  @Field({ description: "user or assistant." })
  role: string;

  @Field()
  content: string;
}

@ObjectType({ description: "A larger look at a work, for the slides: each kind fills its own part and leaves the others empty." })
export class WorkPreview {
  @Field(() => GraphQLJSONObject, { nullable: true, description: "A flow's drawing, as Flow.outline gives it." })
  outline: Record<string, unknown> | null;

  @Field(() => [WorkPreviewDocument], { description: "A knowledge base's most recently changed documents." })
  documents: WorkPreviewDocument[];

  @Field(() => String, { nullable: true, description: "The name of an assistant's last conversation." })
  conversationName: string | null;

  @Field(() => [WorkPreviewMessage], { description: "The last messages of an assistant's last conversation, oldest first." })
  messages: WorkPreviewMessage[];

  @Field(() => String, { nullable: true, description: "A search's summary answer, as plain text." })
  answer: string | null;
}

export const emptyPreview = (): WorkPreview => ({ outline: null, documents: [], conversationName: null, messages: [], answer: null });

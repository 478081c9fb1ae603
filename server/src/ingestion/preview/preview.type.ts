import { GraphQLJSONObject } from "graphql-scalars";
import { Field, Int, ObjectType, registerEnumType } from "type-graphql";
import { PreviewKind, type Preview, type PreviewEmail, type PreviewReason, type PreviewSheet, type PreviewSlide } from "./preview";

registerEnumType(PreviewKind, { name: "PreviewKind", description: "How a preview is drawn; the fields it fills are named in Preview's descriptions." });

@ObjectType("PreviewReason", { description: "A message key of the locales with its parameters, for the client to say in the reader's language." })
export class PreviewReasonType implements PreviewReason {
  @Field()
  messageKey: string;

  @Field(() => GraphQLJSONObject)
  params: Record<string, unknown>;
}

@ObjectType("PreviewSheet", { description: "One sheet of a spreadsheet (or the one table of a CSV file): its first rows and columns." })
export class PreviewSheetType implements PreviewSheet {
  @Field()
  name: string;

  @Field(() => [[String]], { description: "Cells as text, row by row; the first row is shown as the header. Rows are padded to the same length." })
  rows: string[][];

  @Field(() => Int, { description: "Rows the sheet has (at least rows.length; more when it was cut)." })
  totalRows: number;

  @Field(() => Int, { description: "Columns the sheet has (at least the length of a row; more when it was cut)." })
  totalColumns: number;

  @Field({ description: "Whether rows or columns were left out." })
  truncated: boolean;
}

@ObjectType("PreviewEmail", { description: "An e-mail's envelope, body and attachment names." })
export class PreviewEmailType implements PreviewEmail {
  @Field(() => String, { nullable: true })
  from: string | null;

  @Field(() => String, { nullable: true })
  to: string | null;

  @Field(() => String, { nullable: true })
  cc: string | null;

  @Field(() => String, { nullable: true })
  subject: string | null;

  @Field(() => String, { nullable: true, description: "As the Date header says it." })
  date: string | null;

  @Field(() => String, { nullable: true, description: "The HTML body, sanitised (null when the mail has only text)." })
  html: string | null;

  @Field(() => String, { nullable: true, description: "The plain-text body (used when html is null)." })
  text: string | null;

  @Field(() => [String])
  attachments: string[];
}

@ObjectType("PreviewSlide", { description: "The text of one slide (or page) of a presentation." })
export class PreviewSlideType implements PreviewSlide {
  @Field(() => Int, { description: "1-based." })
  number: number;

  @Field(() => String, { nullable: true })
  title: string | null;

  @Field()
  text: string;
}

/**
 * A file rendered for reading, never its raw bytes: what the document viewer and the file manager's preview
 * drawer show. One object type with a kind and the fields that kind fills (the others are null), so that a
 * client asks for one fragment and switches on `kind`.
 *
 * A resolver answers `@Query(() => PreviewType)` with the plain `Preview` that `services.previews.of` gives.
 */
@ObjectType("Preview", { description: "A file rendered for reading (see PreviewKind): only the fields of its kind are set." })
export class PreviewType implements Preview {
  @Field(() => PreviewKind)
  kind: PreviewKind;

  @Field()
  fileName: string;

  @Field(() => String, { nullable: true, description: "kind html: sanitised HTML (no scripts, event attributes or javascript: URLs)." })
  html?: string | null;

  @Field(() => String, { nullable: true, description: "kind markdown: Markdown source, to be rendered without raw HTML." })
  markdown?: string | null;

  @Field(() => String, { nullable: true, description: "kind text: the decoded text." })
  text?: string | null;

  @Field(() => String, { nullable: true, description: "kind text: the highlight.js language name; null for plain text." })
  language?: string | null;

  @Field(() => [PreviewSheetType], { nullable: true, description: "kind table: the sheets, in order." })
  sheets?: PreviewSheetType[] | null;

  @Field(() => PreviewEmailType, { nullable: true, description: "kind email." })
  email?: PreviewEmailType | null;

  @Field(() => [PreviewSlideType], { nullable: true, description: "kind slides." })
  slides?: PreviewSlideType[] | null;

  @Field({ description: "Whether the text, HTML, Markdown or slides were cut at the preview's size limit." })
  truncated: boolean;

  @Field(() => PreviewReasonType, { nullable: true, description: "kind unsupported: why there is no preview." })
  reason?: PreviewReasonType | null;
}

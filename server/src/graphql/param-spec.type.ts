import { GraphQLJSON } from "graphql-scalars";
import { Field, Float, Int, ObjectType } from "type-graphql";
import type { DisplayOptions, ParamSpec } from "../platform/param-spec";

/** The GraphQL face of platform/param-spec.ts: what a client needs to draw and pre-check a parameter form. */

@ObjectType({ description: "One choice of a select parameter." })
class ParamOptionType {
  @Field()
  value: string;

  @Field(() => String, { nullable: true, description: "Message key; without one the value is shown as it is." })
  label: string | null;
}

@ObjectType({ description: "A display condition: the sibling `key` holds one of `values`." })
class ParamConditionType {
  @Field()
  key: string;

  @Field(() => [GraphQLJSON])
  values: unknown[];
}

@ObjectType({ description: "A parameter, self-described: type, message keys, default, limits, options and display conditions (see platform/param-spec.ts)." })
export class ParamSpecType {
  @Field()
  key: string;

  @Field({ description: "string, text, secret, url, integer, number, boolean, select, multiselect, list, json or object" })
  type: string;

  @Field({ description: "Message key of the label." })
  label: string;

  @Field(() => String, { nullable: true, description: "Message key of the help text." })
  help: string | null;

  @Field(() => String, { nullable: true, description: "Message key of the titled group it is shown in." })
  group: string | null;

  @Field(() => GraphQLJSON, { nullable: true })
  default: unknown;

  @Field()
  required: boolean;

  @Field()
  nullable: boolean;

  @Field(() => Float, { nullable: true })
  min: number | null;

  @Field(() => Float, { nullable: true })
  max: number | null;

  @Field(() => Float, { nullable: true })
  step: number | null;

  @Field(() => Int, { nullable: true })
  minLength: number | null;

  @Field({ description: "minLength counts the text without surrounding spaces." })
  trimmed: boolean;

  @Field(() => String, { nullable: true, description: "A JavaScript regular expression the text must match." })
  pattern: string | null;

  @Field(() => [ParamOptionType])
  options: ParamOptionType[];

  @Field(() => [ParamSpecType], { description: "An object's parameters." })
  params: ParamSpecType[];

  @Field(() => [ParamConditionType], { description: "Shown only when every one of these holds." })
  show: ParamConditionType[];

  @Field(() => [ParamConditionType], { description: "Hidden when any of these holds." })
  hide: ParamConditionType[];

  @Field(() => String, { nullable: true, description: "A presentation hint: slider, segmented, tags, pageRanges, multiline, code." })
  widget: string | null;
}

const conditionsOf = (rule: DisplayOptions["show"]): ParamConditionType[] => Object.entries(rule ?? {}).map(([key, values]) => ({ key, values: [...values] }));

export function presentParamSpec(spec: ParamSpec): ParamSpecType {
  return {
    key: spec.key,
    type: spec.type,
    label: spec.label,
    help: spec.help ?? null,
    group: spec.group ?? null,
    default: spec.default ?? null,
    required: spec.required ?? false,
    nullable: spec.nullable ?? false,
    min: spec.min ?? null,
    max: spec.max ?? null,
    step: spec.step ?? null,
    minLength: spec.minLength ?? null,
    trimmed: spec.trimmed ?? false,
    pattern: spec.pattern ?? null,
    options: (spec.options ?? []).map((o) => ({ value: o.value, label: o.label ?? null })),
    params: (spec.params ?? []).map(presentParamSpec),
    show: conditionsOf(spec.displayOptions?.show),
    hide: conditionsOf(spec.displayOptions?.hide),
    widget: spec.widget ?? null,
  };
}

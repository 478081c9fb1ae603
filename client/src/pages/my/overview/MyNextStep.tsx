import { Skeleton } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { AssistantsDocument, KnowledgeBasesDocument } from "../../../graphql/gql/graphql";
import { nextStep } from "./nextStep";
import { NextStepCard } from "./NextStepCard";

/** How many of the newest knowledge bases the next step looks through. */
const LOOKED_AT = 6;

/** The signed-in home's top: the one thing to do next with what the user has (the works below list it all). */
export function MyNextStep() {
  // Counts change as documents parse elsewhere: read them fresh each time the page opens.
  const knowledge = useQuery(KnowledgeBasesDocument, { variables: { page: 1, pageSize: LOOKED_AT }, fetchPolicy: "cache-and-network" });
  const assistants = useQuery(AssistantsDocument, { variables: { page: 1, pageSize: 1 }, fetchPolicy: "cache-and-network" });
  const knowledgeBases = knowledge.data?.knowledgeBases.items;
  const assistantItems = assistants.data?.assistants.items;
  if (!knowledgeBases || !assistantItems) return <Skeleton height="28" rounded="l3" data-testid="my-next-step-loading" />;
  return <NextStepCard step={nextStep(knowledgeBases, assistantItems)} />;
}

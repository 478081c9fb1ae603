import { Button, HStack } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { WorkKindsDocument, type WorkKind } from "../../../graphql/gql/graphql";
import type { WorkFilter as Filter } from "./workLogic";
import { kindIcon } from "./workVisuals";

/** The kind filter of my space and its slides: all, or one of the kinds the server lists. */
export function WorkFilter({ value, onChange }: { value: Filter; onChange: (filter: Filter) => void }) {
  const { t } = useTranslation();
  const { data } = useQuery(WorkKindsDocument, { fetchPolicy: "cache-first" });
  const choices: Filter[] = ["all", ...(data?.workKinds ?? [])];
  return (
    <HStack gap="1.5" wrap="wrap" role="group" aria-label={t("works.filterLabel")} data-testid="works-filter">
      {choices.map((choice) => {
        const Icon = choice === "all" ? null : kindIcon(choice as WorkKind);
        const chosen = value === choice;
        return (
          <Button
            key={choice}
            size="xs"
            rounded="full"
            variant={chosen ? "solid" : "outline"}
            colorPalette={chosen ? "brand" : "gray"}
            aria-pressed={chosen}
            onClick={() => onChange(choice)}
            data-testid={`works-filter-${choice}`}
          >
            {Icon && <Icon />} {t(`works.filter.${choice}`)}
          </Button>
        );
      })}
    </HStack>
  );
}

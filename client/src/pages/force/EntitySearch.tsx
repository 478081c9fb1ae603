import { Box, Input, InputGroup, Spinner, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useDeferredValue, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuSearch } from "react-icons/lu";
import { SearchGraphEntitiesDocument } from "../../graphql/gql/graphql";
import type { EntityRef } from "./forceModel";

interface EntitySearchProps {
  knowledgeBaseIds: string[];
  /** With several knowledge bases shown, each match names its own. */
  knowledgeBaseNames: Map<string, string> | null;
  onChoose: (entity: EntityRef) => void;
  /** The ids of the matches, ringed in the drawing while the search lasts. */
  onResults: (ids: ReadonlySet<string>) => void;
}

/** Finds entities by name in the shown knowledge bases (their whole graphs, not only what is drawn); choosing one focuses it. */
export function EntitySearch({ knowledgeBaseIds, knowledgeBaseNames, onChoose, onResults }: EntitySearchProps) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const wanted = useDeferredValue(text.trim());
  const { data, previousData, loading } = useQuery(SearchGraphEntitiesDocument, { variables: { knowledgeBaseIds, text: wanted }, skip: !wanted });
  const results = wanted ? (data ?? previousData)?.searchGraphEntities ?? [] : [];

  // Told when the matches change, not at every render (the list is a new array each time).
  const matchIds = results.map((entity) => entity.id).join("\u0000");
  useEffect(() => {
    onResults(new Set(matchIds ? matchIds.split("\u0000") : []));
  }, [matchIds]);

  return (
    <Stack gap="2">
      <InputGroup startElement={<LuSearch />} endElement={loading ? <Spinner size="xs" /> : undefined}>
        <Input size="sm" value={text} onChange={(event) => setText(event.target.value)} placeholder={t("force.searchPlaceholder")} aria-label={t("force.search")} data-testid="force-search" />
      </InputGroup>
      {wanted && !loading && results.length === 0 && (
        <Text fontSize="sm" color="fg.muted" data-testid="force-search-none">
          {t("force.searchNone")}
        </Text>
      )}
      {results.length > 0 && (
        <Box borderWidth="1px" rounded="l2" maxHeight="60" overflowY="auto" data-testid="force-search-results">
          {results.map((entity) => (
            <Box
              as="button"
              key={entity.id}
              display="block"
              width="full"
              textAlign="start"
              px="2.5"
              py="1.5"
              borderBottomWidth="1px"
              borderColor="border.muted"
              _last={{ borderBottomWidth: 0 }}
              _hover={{ bg: "bg.subtle" }}
              onClick={() => onChoose({ knowledgeBaseId: entity.knowledgeBaseId, name: entity.name })}
              data-testid="force-search-result"
            >
              <Text fontSize="sm" fontWeight="medium" truncate>
                {entity.name}
              </Text>
              <Text fontSize="xs" color="fg.muted" truncate>
                {[entity.type, t("force.degree", { count: entity.degree }), knowledgeBaseNames?.get(entity.knowledgeBaseId)].filter(Boolean).join(" · ")}
              </Text>
            </Box>
          ))}
        </Box>
      )}
    </Stack>
  );
}

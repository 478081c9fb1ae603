import { Input, InputGroup, NativeSelect, SegmentGroup, Stack } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuSearch } from "react-icons/lu";
import { FormField } from "../../../components/FormField";
import { problemText, type FieldProblems } from "../../../errors";
import { MergeTargetDocumentsDocument, MergeTargetKnowledgeBasesDocument, type MergeSourceAction, type MergeTarget } from "../../../graphql/gql/graphql";
import { useDebouncedValue } from "../../../hooks/useDebouncedValue";

export interface MergeTargetChoice {
  target: MergeTarget;
  knowledgeBaseId: string;
  /** target chunk: the document the merged chunk goes into. */
  documentId: string;
  /** target document: the new document's name. */
  documentName: string;
  sourceAction: MergeSourceAction;
}

interface MergeTargetFieldsProps {
  value: MergeTargetChoice;
  onChange: (patch: Partial<MergeTargetChoice>) => void;
  /** The sources' embedding models: with several, only a new document can hold them. */
  embeddingModels: string[];
  /** Names of documents known already (the sources'), so that the chosen one shows whatever the search lists. */
  knownDocuments: Map<string, string>;
  problems: FieldProblems;
}

/** Where the merged text goes (one chunk of a document, or a new document of a knowledge base) and what becomes of the sources. */
export function MergeTargetFields({ value, onChange, embeddingModels, knownDocuments, problems }: MergeTargetFieldsProps) {
  const { t, i18n } = useTranslation();
  const embeddingModel = embeddingModels.length === 1 ? embeddingModels[0] : null;
  const { data: bases } = useQuery(MergeTargetKnowledgeBasesDocument);
  const intoChunk = value.target === "chunk";
  return (
    <Stack gap="4">
      <FormField label={t("merge.target")} helper={embeddingModel === null ? t("errors.merge.embeddingModelsDiffer", { models: embeddingModels.join(", ") }) : undefined}>
        <SegmentGroup.Root size="sm" value={value.target} onValueChange={(details) => details.value && onChange({ target: details.value as MergeTarget })} data-testid="merge-target">
          <SegmentGroup.Indicator />
          <SegmentGroup.Items
            items={[
              { value: "chunk", label: t("merge.targetChunk"), disabled: embeddingModel === null },
              { value: "document", label: t("merge.targetDocument") },
            ]}
          />
        </SegmentGroup.Root>
      </FormField>
      <FormField label={t("merge.knowledgeBase")} error={problemText(i18n, problems.knowledgeBaseId)} required>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            value={value.knowledgeBaseId}
            onChange={(event) => onChange({ knowledgeBaseId: event.target.value, documentId: "" })}
            placeholder={t("merge.knowledgeBasePlaceholder")}
            data-testid="merge-knowledge-base"
          >
            {(bases?.knowledgeBases.items ?? []).map((kb) => {
              const otherModel = intoChunk && embeddingModel !== null && kb.embeddingModel !== embeddingModel;
              return (
                <option key={kb.id} value={kb.id} disabled={otherModel}>
                  {otherModel ? t("merge.otherEmbedding", { name: kb.name }) : kb.name}
                </option>
              );
            })}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      {intoChunk ? (
        value.knowledgeBaseId && (
          <DocumentPicker
            knowledgeBaseId={value.knowledgeBaseId}
            documentId={value.documentId}
            knownDocuments={knownDocuments}
            error={problemText(i18n, problems.documentId)}
            onChange={(documentId) => onChange({ documentId })}
          />
        )
      ) : (
        <FormField label={t("merge.documentName")} helper={t("merge.documentNameHelp")} error={problemText(i18n, problems.documentName)} required>
          <Input size="sm" value={value.documentName} onChange={(event) => onChange({ documentName: event.target.value })} data-testid="merge-document-name" />
        </FormField>
      )}
      <FormField label={t("merge.sourceAction")} helper={t(`merge.sourceActionHelp.${value.sourceAction}`)}>
        <SegmentGroup.Root size="sm" value={value.sourceAction} onValueChange={(details) => details.value && onChange({ sourceAction: details.value as MergeSourceAction })} data-testid="merge-source-action">
          <SegmentGroup.Indicator />
          <SegmentGroup.Items items={(["keep", "disable", "remove"] as const).map((action) => ({ value: action, label: t(`merge.sourceActions.${action}`) }))} />
        </SegmentGroup.Root>
      </FormField>
    </Stack>
  );
}

interface DocumentPickerProps {
  knowledgeBaseId: string;
  documentId: string;
  knownDocuments: Map<string, string>;
  error?: string;
  onChange: (documentId: string) => void;
}

/** A document of the knowledge base, found by a part of its name. */
function DocumentPicker({ knowledgeBaseId, documentId, knownDocuments, error, onChange }: DocumentPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const settled = useDebouncedValue(search.trim(), 300);
  const { data } = useQuery(MergeTargetDocumentsDocument, { variables: { knowledgeBaseId, search: settled || null } });
  const names = useRef(new Map(knownDocuments));
  const listed = data?.documents.items ?? [];
  for (const document of listed) names.current.set(document.id, document.name);
  const options = documentId && !listed.some((d) => d.id === documentId) ? [{ id: documentId, name: names.current.get(documentId) ?? documentId }, ...listed] : listed;
  return (
    <FormField label={t("merge.document")} error={error} required>
      <Stack gap="2" width="full">
        <InputGroup startElement={<LuSearch />}>
          <Input size="sm" placeholder={t("merge.documentSearch")} value={search} onChange={(event) => setSearch(event.target.value)} data-testid="merge-document-search" />
        </InputGroup>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field value={documentId} onChange={(event) => onChange(event.target.value)} placeholder={t("merge.documentPlaceholder")} data-testid="merge-document">
            {options.map((document) => (
              <option key={document.id} value={document.id}>
                {document.name}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Stack>
    </FormField>
  );
}

import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { PageHeader } from "../../components/PageHeader";
import { chunkIdsOf } from "../../documents/chunkMerge";
import { MergeEditor } from "./merge/MergeEditor";
import { MergeEmptyState } from "./merge/MergeEmptyState";

/** /search/merge?chunks=<id>,<id>,…: the chosen chunks merged into one chunk or a new document, the text edited first. */
export default function SearchMergePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const chunkIds = useMemo(() => chunkIdsOf(params.get("chunks")), [params]);
  return (
    <>
      <PageHeader title={t("pages.searchMerge.title")} description={t("pages.searchMerge.summary")} />
      {chunkIds.length === 0 ? <MergeEmptyState /> : <MergeEditor key={chunkIds.join(",")} chunkIds={chunkIds} />}
    </>
  );
}

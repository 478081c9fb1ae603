import { useMutation, useSubscription } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError, fieldProblemsOf, hasNoProblems, type FieldProblems } from "../../errors";
import { FileImportProgressDocument, ImportFromS3Document, ListS3ObjectsDocument, type FileImportFieldsFragment, type S3ObjectFieldsFragment } from "../../graphql/gql/graphql";
import { EMPTY_S3_CONNECTION, s3ConnectionInput, s3ConnectionProblems, type S3ConnectionValues } from "./s3Connection";

export type S3ImportStep = "connect" | "choose" | "copy";

/** The server has tried every object, or stopped. */
export const importEnded = (progress: Pick<FileImportFieldsFragment, "status">) => progress.status !== "running";

/**
 * The three steps of an import from an S3-compatible bucket: the connection, the objects listed page by page and
 * ticked, then the copy into the folder with the server's live progress (and each object's error).
 */
export function useS3Import({ open, folderId, onImported }: { open: boolean; folderId: string | null; onImported: () => void }) {
  const { i18n } = useTranslation();
  const [step, setStep] = useState<S3ImportStep>("connect");
  const [values, setValues] = useState<S3ConnectionValues>(EMPTY_S3_CONNECTION);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [listing, setListing] = useState(false);
  const [objects, setObjects] = useState<S3ObjectFieldsFragment[]>([]);
  const [nextToken, setNextToken] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [importId, setImportId] = useState<string | null>(null);
  const [progress, setProgress] = useState<FileImportFieldsFragment | null>(null);
  const [listObjects] = useMutation(ListS3ObjectsDocument);
  const [startImport, starting] = useMutation(ImportFromS3Document);

  useEffect(() => {
    if (!open) return;
    // The keys are not kept between openings.
    setStep("connect");
    setValues(EMPTY_S3_CONNECTION);
    setProblems({});
    setFailure(null);
    setObjects([]);
    setChosen(new Set());
    setImportId(null);
    setProgress(null);
  }, [open]);

  useSubscription(FileImportProgressDocument, {
    variables: { importId: importId ?? "" },
    skip: !importId,
    onData: ({ data }) => {
      const event = data.data?.fileImportProgress;
      if (!event) return;
      setProgress(event);
      if (importEnded(event)) onImported();
    },
  });

  async function list(continuationToken: string | null) {
    const found = s3ConnectionProblems(values);
    setProblems(found);
    if (!hasNoProblems(found)) return;
    setListing(true);
    setFailure(null);
    try {
      const { data } = await listObjects({ variables: { source: s3ConnectionInput(values), continuationToken } });
      const page = data?.listS3Objects;
      if (!page) return;
      setObjects((current) => (continuationToken ? [...current, ...page.objects] : page.objects));
      setNextToken(page.nextContinuationToken ?? null);
      setStep("choose");
    } catch (error) {
      const fromServer = fieldProblemsOf(error);
      if (hasNoProblems(fromServer)) setFailure(describeError(error, i18n));
      else {
        setProblems(fromServer);
        setStep("connect");
      }
    } finally {
      setListing(false);
    }
  }

  return {
    step,
    values,
    problems,
    failure,
    listing,
    objects,
    hasMore: nextToken !== null,
    chosen,
    progress,
    starting: starting.loading,
    edit(field: keyof S3ConnectionValues, value: string) {
      setValues((current) => ({ ...current, [field]: value }));
      setProblems((current) => ({ ...current, [field]: undefined }));
    },
    list: () => list(null),
    more: () => list(nextToken),
    back() {
      setStep("connect");
      setFailure(null);
    },
    toggle(key: string, on: boolean) {
      setChosen((current) => {
        const next = new Set(current);
        if (on) next.add(key);
        else next.delete(key);
        return next;
      });
    },
    /** The objects the import would refuse (over 10 MB) are never ticked. */
    choosable: objects.filter((object) => !object.tooLarge),
    chooseAll: (on: boolean) => setChosen(on ? new Set(objects.filter((object) => !object.tooLarge).map((object) => object.key)) : new Set()),
    async copy() {
      setFailure(null);
      try {
        const { data } = await startImport({ variables: { source: s3ConnectionInput(values), keys: [...chosen], parentId: folderId } });
        if (!data) return;
        setProgress(data.importFromS3);
        setImportId(data.importFromS3.id);
        setStep("copy");
      } catch (error) {
        setFailure(describeError(error, i18n));
      }
    },
  };
}

export type S3Import = ReturnType<typeof useS3Import>;

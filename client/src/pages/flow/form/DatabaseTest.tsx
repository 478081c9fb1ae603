import { Button, Stack } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuPlugZap } from "react-icons/lu";
import { ConnectionResult, type ConnectionTest } from "../../../components/ConnectionResult";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import { TestFlowDatabaseConnectionDocument } from "../../../graphql/gql/graphql";

interface DatabaseTestProps {
  flowId: string;
  componentId: string;
  /** The form's params now; a password left empty is the saved one (at the saved address). */
  params: Record<string, unknown>;
}

/** ExeSQL's Test button (RAGFlow's): connects with the form's settings and says whether the database answered, or why not. */
export function DatabaseTest({ flowId, componentId, params }: DatabaseTestProps) {
  const { t, i18n } = useTranslation();
  const [test, { loading }] = useMutation(TestFlowDatabaseConnectionDocument);
  const [result, setResult] = useState<ConnectionTest | null>(null);

  async function run() {
    setResult(null);
    try {
      const { data } = await test({ variables: { flowId, componentId, params } });
      if (data) setResult(data.testFlowDatabaseConnection);
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  return (
    <Stack gap="2" align="flex-start">
      <Button size="sm" variant="outline" onClick={run} loading={loading} data-testid="flow-form-database-test">
        <LuPlugZap /> {t("flow.form.database.test")}
      </Button>
      {result && <ConnectionResult result={result} />}
    </Stack>
  );
}

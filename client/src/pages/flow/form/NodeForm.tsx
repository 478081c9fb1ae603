import { Alert, Badge, Input, List, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useEffect, useMemo, useRef, useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../../components/FormField";
import { ParamForm, type ParamRendererProps } from "../../../components/ParamForm";
import { checkDraft, draftOf, valuesOf, type ParamDraft, type ParamSpecView } from "../../../components/paramForm.logic";
import { problemText } from "../../../errors";
import { FlowFormChoicesDocument } from "../../../graphql/gql/graphql";
import type { EditorNode, FlowComponentInfo, FlowProblem, RouteView } from "../flowTypes";
import { DatabaseTest } from "./DatabaseTest";
import { BeginInputsField } from "./fields/BeginInputsField";
import { CategoriesField } from "./fields/CategoriesField";
import { ModelSettingsField } from "./fields/ModelSettingsField";
import { PromptField } from "./fields/PromptField";
import { SecretField } from "./fields/SecretField";
import { CodeField, KnowledgeBasesField, RerankModelField, RouteField, TextListField, ToolsField } from "./fields/SimpleFields";
import { SwitchConditionsField } from "./fields/SwitchConditionsField";
import { InputVariablesField, KeyValueReferencesField, ParametersField } from "./fields/VariableListFields";
import { formSpecs, nameProblem, placeProblems, problemOf } from "./nodeForm.logic";
import { referenceGroups } from "./references";
import { SECRET_TEXT_WIDGET, SECRET_WIDGET } from "./secrets";
import type { WidgetContext, WidgetProps } from "./widgetContext";

/** The editor's drawer shows one node's form: its name, what the component does, and its params drawn by <ParamForm>. */
export interface NodeFormProps {
  flowId: string;
  node: EditorNode;
  component: FlowComponentInfo;
  /** The registry, to name components in pickers. */
  components: FlowComponentInfo[];
  /** Every component node of the flow. */
  nodes: EditorNode[];
  /** Ids of the components upstream of this node (transitively): the variable pickers offer their outputs and Begin's inputs. */
  upstream: string[];
  /** A routing component's ports and where their edges lead (edges are made on the canvas). */
  routes: RouteView[];
  /** validateFlow's problems on this node; `field` null: the node as a whole, "name": its name, else a param path. */
  problems: FlowProblem[];
  onRename: (name: string) => void;
  onChange: (params: Record<string, unknown>) => void;
  /**
   * Ports the form renamed, for the canvas to move their edges (old handle → new handle; null: the port is gone):
   * a Categorize category renamed or removed, a Switch case removed (the later cases move up).
   */
  onPortsRenamed?: (renames: Record<string, string | null>) => void;
}

/** The flow widgets (server/src/flows: `widget:` of the components' ParamSpecs); ParamForm draws the others itself. */
const WIDGETS: Record<string, ComponentType<WidgetProps>> = {
  beginInputs: BeginInputsField,
  categories: CategoriesField,
  switchConditions: SwitchConditionsField,
  componentSelect: RouteField,
  flowComponent: RouteField,
  flowComponents: ToolsField,
  inputVariables: InputVariablesField,
  keyValueReferences: KeyValueReferencesField,
  parameters: ParametersField,
  promptParameters: ParametersField,
  prompt: PromptField,
  chatModel: ModelSettingsField,
  knowledgeBases: KnowledgeBasesField,
  rerankModel: RerankModelField,
  code: CodeField,
  json: CodeField,
  textList: TextListField,
  [SECRET_WIDGET]: SecretField,
  [SECRET_TEXT_WIDGET]: SecretField,
};

export function NodeForm(props: NodeFormProps) {
  // Another node is another form: nothing typed in one leaks into the next.
  return <NodeFormBody key={props.node.id} {...props} />;
}

function NodeFormBody({ flowId, node, component, components, nodes, upstream, routes, problems, onRename, onChange, onPortsRenamed }: NodeFormProps) {
  const { t, i18n } = useTranslation();
  const { data: choices } = useQuery(FlowFormChoicesDocument);
  const specs = component.params as ParamSpecView[];
  const shown = useMemo(() => formSpecs(specs), [specs]);

  // The draft keeps numbers as typed; every edit sends the params at once. Params that change elsewhere (an undo)
  // replace the draft; the params this form sent do not.
  const [draft, setDraft] = useState<ParamDraft>(() => draftOf(specs, node.params));
  const sent = useRef<string>(JSON.stringify(node.params));
  useEffect(() => {
    const now = JSON.stringify(node.params);
    if (now !== sent.current) {
      sent.current = now;
      setDraft(draftOf(specs, node.params));
    }
  }, [node.params, specs]);

  function change(next: ParamDraft) {
    setDraft(next);
    const params = { ...node.params, ...valuesOf(specs, next) };
    sent.current = JSON.stringify(params);
    onChange(params);
  }

  const placed = placeProblems(problems, specs);
  const byPath = { ...placed.byPath, ...checkDraft(specs, draft) };
  // The rule is checked here as the user types; the server's word on the name counts while it is about this name.
  const serverName = placed.name && String(placed.name.params?.name ?? "") === node.name.trim() ? problemOf(placed.name) : undefined;
  const nameError = problemText(i18n, nameProblem(node.name, node.id, nodes) ?? serverName);
  const groups = useMemo(() => referenceGroups({ nodes, components, upstream, t }), [nodes, components, upstream, t]);

  const context: WidgetContext = { node, component, nodes, components, groups, routes, choices, draft, patch: (values) => change({ ...draft, ...values }), problems: byPath, onPortsRenamed };
  const renderers = Object.fromEntries(Object.entries(WIDGETS).map(([widget, Widget]) => [widget, (rendered: ParamRendererProps) => <Widget {...rendered} context={context} />]));

  return (
    <Stack gap="6" data-testid="flow-node-form" data-node={node.id}>
      <Stack gap="2">
        <Badge alignSelf="flex-start" variant="subtle" colorPalette="brand" size="sm">
          {t(component.label)}
        </Badge>
        <Text fontSize="sm" color="fg.muted" data-testid="flow-form-description">
          {t(component.description)}
        </Text>
      </Stack>
      <FormField label={t("flow.form.name")} required error={nameError}>
        <Input value={node.name} onChange={(event) => onRename(event.target.value)} autoComplete="off" data-testid="flow-form-name" />
      </FormField>
      {placed.node.length > 0 && (
        <Alert.Root status="error" size="sm" data-testid="flow-form-node-problems">
          <Alert.Indicator />
          <Alert.Content>
            <List.Root gap="1" ps="0" listStyle="none">
              {placed.node.map((problem, i) => (
                <List.Item key={i} fontSize="sm">
                  {problem.field ? `${problem.field}: ` : ""}
                  {problemText(i18n, problemOf(problem))}
                </List.Item>
              ))}
            </List.Root>
          </Alert.Content>
        </Alert.Root>
      )}
      <ParamForm specs={shown} draft={draft} onChange={change} problems={byPath} renderers={renderers} namePrefix={`${node.id}.`} />
      {component.name === "ExeSQL" && <DatabaseTest flowId={flowId} componentId={node.id} params={{ ...node.params, ...valuesOf(specs, draft) }} />}
    </Stack>
  );
}

import { Button, HStack, IconButton, Input, Spinner, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuArrowLeft, LuCloudAlert, LuHistory, LuLayoutDashboard, LuListChecks, LuPlay, LuRedo2, LuSend, LuUndo2 } from "react-icons/lu";
import { Link } from "react-router-dom";
import { describeError } from "../../../errors";
import { useFormatters } from "../../../format";
import type { SaveState } from "./useAutosave";

interface EditorHeaderProps {
  title: string;
  onTitle: (title: string) => void;
  saveState: SaveState;
  savedAt: string;
  saveError: unknown;
  onRetrySave: () => void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onLayout: () => void;
  onVersions: () => void;
  onRuns: () => void;
  onPublish: () => void;
  onRun: () => void;
  problemCount: number;
}

/** The editor's header (§2, §4): back to the list, the title, the save state ("Autosaved at …"), and the actions. */
export function EditorHeader(props: EditorHeaderProps) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const { saveState } = props;
  return (
    <HStack px="3" py="2" gap="2" borderBottomWidth="1px" bg="bg.panel" flexWrap="wrap" data-testid="flow-editor-header">
      <IconButton asChild variant="ghost" size="sm" aria-label={t("flow.editor.back")} title={t("flow.editor.back")}>
        <Link to="/flow" data-testid="flow-back">
          <LuArrowLeft />
        </Link>
      </IconButton>
      <Input
        value={props.title}
        onChange={(event) => props.onTitle(event.target.value)}
        aria-label={t("flow.editor.title")}
        variant="flushed"
        size="sm"
        fontWeight="semibold"
        fontSize="md"
        width="auto"
        minWidth="10rem"
        maxWidth="20rem"
        data-testid="flow-title"
      />
      <HStack gap="1.5" fontSize="xs" color={saveState === "failed" || saveState === "conflict" ? "fg.error" : "fg.muted"} minWidth="0" flex="1" data-testid="flow-save-state" data-state={saveState}>
        {saveState === "saving" && <Spinner size="xs" />}
        {saveState === "failed" && <LuCloudAlert />}
        <Text truncate title={saveState === "failed" ? describeError(props.saveError, i18n) : undefined}>
          {saveState === "saved"
            ? t("flow.editor.autosavedAt", { time: format.time(props.savedAt) })
            : saveState === "failed"
              ? t("flow.editor.saveFailed", { reason: describeError(props.saveError, i18n) })
              : t(`flow.editor.saveState.${saveState}`)}
        </Text>
        {saveState === "failed" && (
          <Button size="2xs" variant="outline" onClick={props.onRetrySave} data-testid="flow-save-retry">
            {t("common.retry")}
          </Button>
        )}
      </HStack>
      <HStack gap="1">
        <IconButton variant="ghost" size="sm" aria-label={t("flow.editor.undo")} title={`${t("flow.editor.undo")} (Ctrl+Z)`} disabled={!props.canUndo} onClick={props.onUndo} data-testid="flow-undo">
          <LuUndo2 />
        </IconButton>
        <IconButton variant="ghost" size="sm" aria-label={t("flow.editor.redo")} title={`${t("flow.editor.redo")} (Ctrl+Shift+Z)`} disabled={!props.canRedo} onClick={props.onRedo} data-testid="flow-redo">
          <LuRedo2 />
        </IconButton>
        <IconButton variant="ghost" size="sm" aria-label={t("flow.editor.autoLayout")} title={t("flow.editor.autoLayout")} onClick={props.onLayout} data-testid="flow-layout">
          <LuLayoutDashboard />
        </IconButton>
        <IconButton variant="ghost" size="sm" aria-label={t("flow.editor.versions")} title={t("flow.editor.versions")} onClick={props.onVersions} data-testid="flow-versions">
          <LuHistory />
        </IconButton>
        <IconButton variant="ghost" size="sm" aria-label={t("flow.editor.runs")} title={t("flow.editor.runs")} onClick={props.onRuns} data-testid="flow-runs">
          <LuListChecks />
        </IconButton>
        <Button variant="outline" size="sm" onClick={props.onPublish} data-testid="flow-publish">
          <LuSend /> {t("flow.editor.publish")}
        </Button>
        <Button colorPalette="brand" size="sm" onClick={props.onRun} data-testid="flow-run" title={props.problemCount > 0 ? t("flow.editor.fixFirst", { count: props.problemCount }) : undefined}>
          <LuPlay /> {t("flow.editor.run")}
        </Button>
      </HStack>
    </HStack>
  );
}

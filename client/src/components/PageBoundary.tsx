import { Box, Button, Center, Code, Spinner, Stack, Text } from "@chakra-ui/react";
import { Component, Suspense, type ErrorInfo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PageLoadError } from "./lazyPage";

export function PageSpinner({ minHeight = "50vh" }: { minHeight?: string }) {
  return (
    <Center minHeight={minHeight} data-testid="page-loading">
      <Spinner size="lg" color="brand.solid" borderWidth="3px" />
    </Center>
  );
}

/** Drawn inline: this module is part of the first download, which the icon library is kept out of. */
function AlertMark() {
  return (
    <Box color="red.solid" aria-hidden="true">
      <svg width="40" height="40" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <circle cx="12" cy="12" r="10" />
        <line x1="12" x2="12" y1="8" y2="12" />
        <line x1="12" x2="12.01" y1="16" y2="16" />
      </svg>
    </Box>
  );
}

function LoadFailure({ error }: { error: Error }) {
  const { t } = useTranslation();
  const message =
    error instanceof PageLoadError
      ? t("errors.loadError", { part: t(`pages.${error.page}.title`), type: t(`loadFailure.${error.failure}`) })
      : t("errors.pageCrashed");
  return (
    <Center minHeight="50vh" px="6" role="alert" data-testid="page-load-error">
      <Stack align="center" gap="4" maxWidth="lg" textAlign="center">
        <AlertMark />
        <Text fontSize="lg" fontWeight="semibold">
          {message}
        </Text>
        {!(error instanceof PageLoadError) && (
          <Code colorPalette="gray" whiteSpace="pre-wrap" maxWidth="full">
            {error.message}
          </Code>
        )}
        <Button colorPalette="brand" onClick={() => window.location.reload()}>
          {t("common.reload")}
        </Button>
      </Stack>
    </Center>
  );
}

interface BoundaryState {
  error: Error | null;
}

interface BoundaryProps {
  children: ReactNode;
  resetKey?: string;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { error: null };

  componentDidUpdate(previous: BoundaryProps): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("[cairn] a page failed", error, info.componentStack);
  }

  render() {
    return this.state.error ? <LoadFailure error={this.state.error} /> : this.props.children;
  }
}

/**
 * Wraps a lazily loaded page: a spinner while its code arrives, and a translated load error with a
 * reload button when it fails or times out. A new `resetKey` (the address) clears a shown failure.
 */
export function PageBoundary({ children, minHeight, resetKey }: { children: ReactNode; minHeight?: string; resetKey?: string }) {
  return (
    <ErrorBoundary resetKey={resetKey}>
      <Suspense fallback={<PageSpinner minHeight={minHeight} />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

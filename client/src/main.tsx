import { ApolloProvider } from "@apollo/client/react";
import { ChakraProvider } from "@chakra-ui/react";
import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { apolloClient } from "./apollo";
import { App } from "./App";
import { PageSpinner } from "./components/PageBoundary";
import "./i18n";
import { system } from "./theme";

const AppToaster = lazy(() => import("./components/AppToaster"));

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <ChakraProvider value={system}>
      <ApolloProvider client={apolloClient}>
        <BrowserRouter>
          {/* The first messages load lazily too; until they arrive, a spinner instead of untranslated keys. */}
          <Suspense fallback={<PageSpinner minHeight="100dvh" />}>
            <App />
          </Suspense>
          <Suspense fallback={null}>
            <AppToaster />
          </Suspense>
        </BrowserRouter>
      </ApolloProvider>
    </ChakraProvider>
  </StrictMode>,
);

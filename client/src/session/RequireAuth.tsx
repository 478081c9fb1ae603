import { Button, Center, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router-dom";
import { PageSpinner } from "../components/PageBoundary";
import { describeError, errorCodeOf } from "../errors";
import { MeDocument } from "../graphql/gql/graphql";
import { authStore, useAuthToken } from "./authStore";
import { loginPathFor } from "./returnTo";

/**
 * §6: every page of the main layout needs a signed-in user. An anonymous visitor goes to /login and
 * comes back to the page (with its query string) after signing in.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useAuthToken();
  const location = useLocation();
  const { t, i18n } = useTranslation();
  const { data, error, refetch, loading } = useQuery(MeDocument, { skip: !token, fetchPolicy: "cache-first" });

  if (!token) {
    const here = location.pathname + location.search + location.hash;
    return <Navigate to={authStore.signedOutByUserAt() === here ? "/login" : loginPathFor(here)} replace />;
  }
  if (data?.me) return children;
  // A refused token is cleared by the Apollo error link, which brings us back here without one.
  if (error && errorCodeOf(error) !== "UNAUTHENTICATED") {
    return (
      <Center minHeight="100dvh" px="6" role="alert">
        <Stack align="center" gap="4" textAlign="center" maxWidth="md">
          <Text fontWeight="medium">{describeError(error, i18n)}</Text>
          <Button colorPalette="brand" loading={loading} onClick={() => void refetch()}>
            {t("common.retry")}
          </Button>
        </Stack>
      </Center>
    );
  }
  return <PageSpinner minHeight="100dvh" />;
}

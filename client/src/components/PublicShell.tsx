import { Box, Container, Flex, HStack } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { LanguageMenu } from "./LanguageMenu";
import { Logo } from "./Logo";
import { ThemeMenu } from "./ThemeMenu";

/** The frame of the pages outside the signed-in layout: the mark, the switchers, the page. */
export function PublicShell({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Flex direction="column" minHeight="100dvh">
      <Box as="header" borderBottomWidth="1px" borderColor="border" bg="bg.panel">
        <Container maxWidth="6xl" px={{ base: "4", md: "6" }}>
          <Flex h="16" align="center" justify="space-between">
            <Link to="/home" aria-label="Cairn">
              <Logo />
            </Link>
            <HStack gap="1">
              {actions}
              <LanguageMenu />
              <ThemeMenu />
            </HStack>
          </Flex>
        </Container>
      </Box>
      <Container as="main" maxWidth="6xl" px={{ base: "4", md: "6" }} py={{ base: "8", md: "14" }} flex="1">
        {children}
      </Container>
    </Flex>
  );
}

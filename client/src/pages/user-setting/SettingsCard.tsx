import { Box, type BoxProps } from "@chakra-ui/react";

/** The panel every settings form sits on. */
export function SettingsCard(props: BoxProps) {
  return <Box bg="bg.panel" borderWidth="1px" rounded="l3" p={{ base: "5", md: "8" }} {...props} />;
}

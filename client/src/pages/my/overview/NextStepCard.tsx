import { Box, Button, Flex, Heading, HStack, Icon, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuArrowRight, LuBot, LuFileUp, LuLibrary, LuMessagesSquare, LuScanText, LuSearch } from "react-icons/lu";
import { Link } from "react-router-dom";
import { CreateKnowledgeBaseDialog } from "../../../components/CreateKnowledgeBaseDialog";
import type { NextStep } from "./nextStep";

const ICONS: Record<NextStep["kind"], IconType> = {
  createKnowledgeBase: LuLibrary,
  upload: LuFileUp,
  parse: LuScanText,
  tryKnowledge: LuSearch,
  chat: LuMessagesSquare,
};

/** The one thing to do next, said plainly, with the button that does it. */
export function NextStepCard({ step }: { step: NextStep }) {
  const { t } = useTranslation();
  const [creating, setCreating] = useState(false);
  const name = "knowledgeBase" in step ? step.knowledgeBase.name : "";
  const chunks = "knowledgeBase" in step ? step.knowledgeBase.chunkCount : 0;

  const actions = (() => {
    switch (step.kind) {
      case "createKnowledgeBase":
        return [{ label: t("my.next.createKnowledgeBase.action"), onClick: () => setCreating(true) }];
      case "upload":
        return [{ label: t("my.next.upload.action"), to: `/knowledge/dataset?id=${step.knowledgeBase.id}` }];
      case "parse":
        return [{ label: t("my.next.parse.action"), to: `/knowledge/dataset?id=${step.knowledgeBase.id}` }];
      case "tryKnowledge":
        return [
          { label: t("my.next.tryKnowledge.action"), to: `/knowledge/testing?id=${step.knowledgeBase.id}` },
          { label: t("my.next.tryKnowledge.secondAction"), to: "/chat", icon: LuBot },
        ];
      case "chat":
        return [{ label: t("my.next.chat.action"), to: "/chat" }];
    }
  })();

  return (
    <Box
      position="relative"
      overflow="hidden"
      rounded="l3"
      borderWidth="1px"
      borderColor="brand.muted"
      bgGradient="to-br"
      gradientFrom="brand.subtle"
      gradientTo="bg.panel"
      p={{ base: "6", md: "8" }}
      data-testid="next-step"
      data-step={step.kind}
    >
      <Flex gap="6" direction={{ base: "column", md: "row" }} align={{ base: "flex-start", md: "center" }}>
        <Box rounded="l3" bg="brand.solid" color="brand.contrast" p="3.5" shadow="sm" flexShrink={0}>
          <Icon as={ICONS[step.kind]} boxSize="7" />
        </Box>
        <Stack gap="1.5" flex="1" minWidth="0">
          <Text fontSize="xs" fontWeight="semibold" letterSpacing="wider" textTransform="uppercase" color="brand.fg">
            {t("my.next.eyebrow")}
          </Text>
          <Heading as="h2" size="xl" letterSpacing="-0.01em" data-testid="next-step-title">
            {t(`my.next.${step.kind}.title`, { name })}
          </Heading>
          <Text color="fg.muted" maxWidth="2xl">
            {t(`my.next.${step.kind}.body`, { name, count: chunks })}
          </Text>
        </Stack>
        <HStack gap="3" flexShrink={0} flexWrap="wrap">
          {actions.map((action, index) => {
            const content = (
              <>
                {"icon" in action && action.icon ? <action.icon /> : null}
                {action.label}
                {index === 0 ? <LuArrowRight /> : null}
              </>
            );
            const variant = index === 0 ? "solid" : "outline";
            return "to" in action && action.to ? (
              <Button key={action.label} asChild colorPalette="brand" variant={variant} size="lg" data-testid="next-step-action">
                <Link to={action.to}>{content}</Link>
              </Button>
            ) : (
              <Button key={action.label} colorPalette="brand" variant={variant} size="lg" onClick={"onClick" in action ? action.onClick : undefined} data-testid="next-step-action">
                {content}
              </Button>
            );
          })}
        </HStack>
      </Flex>
      {/* Its dataset is where the next step, uploading, happens. */}
      <CreateKnowledgeBaseDialog open={creating} onClose={() => setCreating(false)} pageOf={(id) => `/knowledge/dataset?id=${id}`} />
    </Box>
  );
}

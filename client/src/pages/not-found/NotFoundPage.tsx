import { Button, Heading, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuArrowLeft } from "react-icons/lu";
import { Link } from "react-router-dom";
import { CairnMark } from "../../components/Logo";
import { PublicShell } from "../../components/PublicShell";

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PublicShell>
      <Stack align="center" textAlign="center" gap="5" py={{ base: "10", md: "20" }} data-testid="not-found">
        <CairnMark size={56} />
        <Heading as="h1" fontSize={{ base: "6xl", md: "8xl" }} lineHeight="1" letterSpacing="-0.04em" color="brand.fg">
          404
        </Heading>
        <Heading as="h2" size="xl">
          {t("notFound.title")}
        </Heading>
        <Text color="fg.muted" maxWidth="md">
          {t("notFound.description")}
        </Text>
        <Button asChild colorPalette="brand" mt="2">
          <Link to="/">
            <LuArrowLeft /> {t("notFound.backHome")}
          </Link>
        </Button>
      </Stack>
    </PublicShell>
  );
}

import { Box, Code, Heading, HStack, Icon, Link, Skeleton, Stack, Table, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { LuExternalLink, LuGlobe, LuMail, LuMessageSquare, LuUser } from "react-icons/lu";
import type { IconType } from "react-icons";
import type { ReactNode } from "react";
import { LoadFailed } from "../../components/LoadFailed";
import { ContactDocument } from "../../graphql/gql/graphql";
import { SettingsCard } from "./SettingsCard";

/** The variables the operator sets, in the order the page shows them. */
const CONTACT_VARIABLES = ["CONTACT_NAME", "CONTACT_EMAIL", "CONTACT_URL", "CONTACT_MESSAGE"] as const;

/** Settings → Contact us: how to reach the operator of this Cairn, as its configuration says. */
export default function ContactPage() {
  const { t } = useTranslation();
  const { data, loading, error, refetch } = useQuery(ContactDocument);
  if (loading && !data) return <Skeleton height="40" rounded="l3" />;
  if (!data) return <LoadFailed error={error} onRetry={() => void refetch()} />;
  const { name, email, url, message } = data.contact;

  if (!name && !email && !url && !message) {
    return (
      <SettingsCard data-testid="contact-unconfigured">
        <Stack gap="4">
          <Heading as="h2" size="md">
            {t("contact.unconfigured.title")}
          </Heading>
          <Text color="fg.muted">{t("contact.unconfigured.body")}</Text>
          <Text fontSize="sm" color="fg.muted">
            {t("contact.unconfigured.operator")}
          </Text>
          <Table.Root size="sm" variant="outline" rounded="l2">
            <Table.Body>
              {CONTACT_VARIABLES.map((variable) => (
                <Table.Row key={variable}>
                  <Table.Cell width="44">
                    <Code size="sm">{variable}</Code>
                  </Table.Cell>
                  <Table.Cell color="fg.muted">{t(`contact.variables.${variable}`)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Stack>
      </SettingsCard>
    );
  }

  return (
    <SettingsCard data-testid="contact-details">
      <Stack gap="5">
        {name && (
          <ContactRow icon={LuUser} label={t("contact.name")}>
            <Text fontWeight="semibold" data-testid="contact-name">
              {name}
            </Text>
          </ContactRow>
        )}
        {email && (
          <ContactRow icon={LuMail} label={t("contact.email")}>
            <Link href={`mailto:${email}`} colorPalette="brand" color="colorPalette.fg" data-testid="contact-email">
              {email}
            </Link>
          </ContactRow>
        )}
        {url && (
          <ContactRow icon={LuGlobe} label={t("contact.url")}>
            <Link href={url} target="_blank" rel="noopener noreferrer" colorPalette="brand" color="colorPalette.fg" wordBreak="break-all" data-testid="contact-url">
              {url} <LuExternalLink />
            </Link>
          </ContactRow>
        )}
        {message && (
          <ContactRow icon={LuMessageSquare} label={t("contact.message")}>
            <Text whiteSpace="pre-wrap" data-testid="contact-message">
              {message}
            </Text>
          </ContactRow>
        )}
      </Stack>
    </SettingsCard>
  );
}

function ContactRow({ icon, label, children }: { icon: IconType; label: string; children: ReactNode }) {
  return (
    <HStack align="start" gap="4">
      <Box rounded="l2" bg="brand.subtle" color="brand.fg" p="2" flexShrink={0}>
        <Icon as={icon} boxSize="4" />
      </Box>
      <Stack gap="0.5" minWidth="0">
        <Text fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="0.06em" color="fg.subtle">
          {label}
        </Text>
        {children}
      </Stack>
    </HStack>
  );
}

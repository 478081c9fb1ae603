import { Badge, Box, Grid, HStack, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuPaperclip } from "react-icons/lu";
import type { FilePreviewFragment } from "../../graphql/gql/graphql";
import { HtmlPreview } from "./HtmlPreview";

type Email = NonNullable<FilePreviewFragment["email"]>;

/** An e-mail as a mail program shows it: the envelope, the attachments' names, then the body. */
export function EmailPreview({ email }: { email: Email }) {
  const { t } = useTranslation();
  const headers = (["from", "to", "cc", "date"] as const).filter((name) => email[name]);
  return (
    <Stack gap="4" data-testid="preview-email">
      <Stack gap="3" pb="4" borderBottomWidth="1px">
        <Text as="h2" fontSize="lg" fontWeight="semibold" data-testid="preview-email-subject">
          {email.subject ?? t("preview.email.noSubject")}
        </Text>
        <Grid templateColumns="auto 1fr" columnGap="4" rowGap="1" fontSize="sm">
          {headers.map((name) => (
            <Box key={name} display="contents" data-testid={`preview-email-${name}`}>
              <Text color="fg.muted">{t(`preview.email.${name}`)}</Text>
              <Text wordBreak="break-word">{email[name]}</Text>
            </Box>
          ))}
        </Grid>
        {email.attachments.length > 0 && (
          <HStack gap="2" wrap="wrap" fontSize="sm" aria-label={t("preview.email.attachments")} data-testid="preview-email-attachments">
            <LuPaperclip aria-hidden />
            {email.attachments.map((name, index) => (
              <Badge key={`${index}-${name}`} variant="surface" data-testid="preview-email-attachment">
                {name}
              </Badge>
            ))}
          </HStack>
        )}
      </Stack>
      {email.html ? (
        <HtmlPreview html={email.html} inline testId="preview-email-body" />
      ) : email.text?.trim() ? (
        <Text whiteSpace="pre-wrap" wordBreak="break-word" fontSize="sm" lineHeight="1.7" data-testid="preview-email-body">
          {email.text}
        </Text>
      ) : (
        <Text color="fg.muted">{t("preview.email.noBody")}</Text>
      )}
    </Stack>
  );
}

import { Button, CloseButton, Dialog, Input, Portal, Stack, Text } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../../errors";
import { InviteTeamMemberDocument, JoinedTeamsDocument, MyTeamDocument } from "../../graphql/gql/graphql";
import { FormField } from "../FormField";
import { notify } from "../toaster";

/** Invites an address to my team; the server's refusals ("You cannot invite yourself!", "User not found!") show under the field. */
export function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [email, setEmail] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const [invite, { loading }] = useMutation(InviteTeamMemberDocument, { refetchQueries: [MyTeamDocument, JoinedTeamsDocument], awaitRefetchQueries: true });

  function close() {
    setEmail("");
    setProblem(undefined);
    onClose();
  }

  async function submit() {
    if (email.trim() === "") {
      setProblem(t("errors.emailRequired"));
      return;
    }
    try {
      await invite({ variables: { email: email.trim() } });
      notify.success("created");
      close();
    } catch (failure) {
      setProblem(describeError(failure, i18n));
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !loading && close()} placement="center" size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="team-invite-dialog">
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void submit();
              }}
            >
              <Dialog.Header>
                <Dialog.Title>{t("team.inviteTitle")}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <FormField label={t("team.email")} required error={problem}>
                    <Input
                      name="email"
                      type="email"
                      autoFocus
                      value={email}
                      onChange={(event) => {
                        setEmail(event.target.value);
                        setProblem(undefined);
                      }}
                      data-testid="team-invite-email"
                    />
                  </FormField>
                  <Text fontSize="sm" color="fg.muted">
                    {t("team.inviteHint")}
                  </Text>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={close} disabled={loading}>
                  {t("common.cancel")}
                </Button>
                <Button type="submit" colorPalette="brand" loading={loading} data-testid="team-invite-submit">
                  {t("team.sendInvite")}
                </Button>
              </Dialog.Footer>
            </form>
            <Dialog.CloseTrigger asChild disabled={loading}>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

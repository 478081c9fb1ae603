import { Avatar, Badge, Box, Button, Float, HStack, Menu, Portal, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuChevronDown, LuLogOut, LuMail, LuSettings, LuUsers } from "react-icons/lu";
import { useNavigate } from "react-router-dom";
import { useInvitationsToMe } from "../../components/team/useTeam";
import { useCurrentUser } from "../../session/useCurrentUser";
import { useSignOut } from "../../session/useSignOut";

export function UserMenu() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const signOut = useSignOut();
  // Invitations to a team wait for an answer: the menu says so, wherever the user is.
  const waiting = useInvitationsToMe().invitations.length;

  return (
    <Menu.Root positioning={{ placement: "bottom-end" }}>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" px="1.5" gap="2" data-testid="user-menu" aria-label={t("nav.account")}>
          <Avatar.Root size="xs" colorPalette="brand">
            <Avatar.Fallback name={user?.nickname} />
            {user?.avatar && <Avatar.Image src={user.avatar} />}
            {waiting > 0 && (
              <Float placement="top-end" offset="0.5">
                <Box boxSize="2.5" rounded="full" bg="red.solid" borderWidth="2px" borderColor="bg" data-testid="team-invitation-dot" aria-label={t("team.pendingBadge", { count: waiting })} />
              </Float>
            )}
          </Avatar.Root>
          <Text as="span" maxWidth="32" truncate display={{ base: "none", md: "inline" }} fontWeight="medium">
            {user?.nickname}
          </Text>
          <LuChevronDown />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="56">
            <Box px="2" py="2">
              <HStack gap="3">
                <Avatar.Root size="sm" colorPalette="brand">
                  <Avatar.Fallback name={user?.nickname} />
                  {user?.avatar && <Avatar.Image src={user.avatar} />}
                </Avatar.Root>
                <Box minWidth="0">
                  <Text fontWeight="semibold" truncate>
                    {user?.nickname}
                  </Text>
                  <Text fontSize="xs" color="fg.muted" truncate>
                    {user?.email}
                  </Text>
                </Box>
              </HStack>
            </Box>
            <Menu.Separator />
            <Menu.Item value="settings" onClick={() => navigate("/user-setting/profile")} data-testid="menu-settings">
              <LuSettings /> {t("nav.settings")}
            </Menu.Item>
            <Menu.Item value="team" onClick={() => navigate("/team")} data-testid="menu-team">
              <LuUsers /> {t("nav.team")}
              {waiting > 0 && (
                <Badge ms="auto" colorPalette="red" variant="solid" rounded="full" title={t("team.pendingBadge", { count: waiting })} data-testid="team-invitation-count">
                  {waiting}
                </Badge>
              )}
            </Menu.Item>
            {/* §2's "Contact Us" of the header, in every language: whoever needs the operator should not depend on theirs. */}
            <Menu.Item value="contact" onClick={() => navigate("/user-setting/contact")} data-testid="menu-contact">
              <LuMail /> {t("contact.menu")}
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="sign-out" onClick={() => void signOut()} color="fg.error" data-testid="menu-sign-out">
              <LuLogOut /> {t("nav.signOut")}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

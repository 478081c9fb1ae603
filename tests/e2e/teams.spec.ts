import { expect, test } from "@playwright/test";
import { accountWithKnowledgeBase, graphql, PASSWORD, signInWithToken } from "./support";

/**
 * Teams (spec §2 /team and Settings → Team, §4, §5): the owner invites a second user by e-mail; the second user sees
 * the invitation in the header, agrees, and answers from the team's knowledge base in an assistant of their own.
 */
test("an owner invites a second user by e-mail, who agrees and gets answers citing the team's knowledge base in an assistant of their own", async ({ browser, request }) => {
  const owner = await accountWithKnowledgeBase(request, "team-owner");
  await graphql(request, `mutation($id: ID!) { updateKnowledgeBase(id: $id, input: { permission: "team" }) { id } }`, { id: owner.kbId }, owner.token);
  const guestEmail = `team-guest-${Date.now()}@example.com`;
  const { register: guest } = await graphql<{ register: { token: string } }>(request, "mutation($input: RegisterInput!) { register(input: $input) { token } }", { input: { email: guestEmail, nickname: "Ada Lovelace", password: PASSWORD } });

  // The owner invites: first itself, which is refused, then the second user.
  const ownerPage = await (await browser.newContext({ viewport: { width: 1024, height: 800 } })).newPage();
  await signInWithToken(ownerPage, owner.token);
  await ownerPage.goto("/team");
  await expect(ownerPage.getByTestId("team-member-row")).toHaveCount(1);
  await ownerPage.getByTestId("team-invite").click();
  const dialog = ownerPage.getByTestId("team-invite-dialog");
  await dialog.getByTestId("team-invite-email").fill(owner.email);
  await dialog.getByTestId("team-invite-submit").click();
  await expect(dialog).toContainText("You cannot invite yourself!");
  await dialog.getByTestId("team-invite-email").fill(guestEmail);
  await dialog.getByTestId("team-invite-submit").click();
  await expect(dialog).toBeHidden();
  await expect(ownerPage.getByTestId("team-sent-row")).toContainText(guestEmail);
  await expect(ownerPage.getByTestId("team-sent-row")).toContainText("Waiting for an answer");
  await ownerPage.screenshot({ path: "/tmp/team-owner-invited.png", fullPage: true });

  // The second user sees the invitation from the header, and agrees in Settings → Team.
  const guestPage = await (await browser.newContext({ viewport: { width: 1024, height: 800 }, colorScheme: "dark" })).newPage();
  await signInWithToken(guestPage, guest.token);
  await guestPage.goto("/my");
  await expect(guestPage.getByTestId("team-invitation-dot")).toBeVisible();
  await guestPage.getByTestId("user-menu").click();
  await expect(guestPage.getByTestId("team-invitation-count")).toHaveText("1");
  await guestPage.keyboard.press("Escape");
  await guestPage.goto("/user-setting/team");
  const invitation = guestPage.getByTestId("team-invitation-to-me");
  await expect(invitation).toContainText("Grace Hopper invites you to Grace Hopper‘s Kingdom");
  await guestPage.screenshot({ path: "/tmp/team-guest-invitation-dark.png", fullPage: true });
  await invitation.getByTestId("team-agree").click();
  await expect(invitation).toHaveCount(0);
  await expect(guestPage.getByTestId("team-joined-row")).toContainText(owner.email);
  await expect(guestPage.getByTestId("team-invitation-dot")).toHaveCount(0);

  // The owner's members table shows the second user as a normal member.
  await ownerPage.reload();
  await expect(ownerPage.getByTestId("team-member-row").filter({ hasText: guestEmail }).getByTestId("team-role")).toHaveText("Member");
  await expect(ownerPage.getByTestId("team-sent-empty")).toBeVisible();
  await ownerPage.screenshot({ path: "/tmp/team-owner-members.png", fullPage: true });

  // The second user makes an assistant of their own over the team's knowledge base and gets a cited answer.
  await guestPage.goto("/chat");
  await guestPage.getByTestId("assistant-create").click();
  const settings = guestPage.getByTestId("assistant-settings-dialog");
  await settings.getByTestId("assistant-name").fill("Team harbour helper");
  await settings.getByTestId("assistant-kb-option").filter({ hasText: "Harbour town" }).click();
  await settings.getByTestId("assistant-save").click();
  await expect(settings).toBeHidden();
  await guestPage.getByTestId("chat-input").fill("When does the harbour office open?");
  await guestPage.getByTestId("chat-input").press("Enter");
  const answer = guestPage.getByTestId("chat-answer").last();
  await expect(answer).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(answer.getByTestId("answer-content")).toContainText("eight in the morning");
  await expect(answer.getByTestId("answer-reference").first()).toContainText("harbour-handbook.txt");
  await guestPage.screenshot({ path: "/tmp/team-guest-answer.png" });
});

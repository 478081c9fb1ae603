import { Avatar, Icon } from "@chakra-ui/react";
import { LuBot } from "react-icons/lu";

/** An assistant's picture, or the bot icon on the brand tint when it has none. */
export function AssistantAvatar({ name, avatar, size = "md" }: { name: string; avatar?: string | null; size?: "xs" | "sm" | "md" | "lg" | "xl" }) {
  return (
    <Avatar.Root size={size} shape="rounded" bg="brand.subtle" color="brand.fg" borderWidth="1px" borderColor="brand.muted" flexShrink={0}>
      {avatar ? <Avatar.Image src={avatar} alt={name} /> : <Icon as={LuBot} boxSize="55%" />}
    </Avatar.Root>
  );
}

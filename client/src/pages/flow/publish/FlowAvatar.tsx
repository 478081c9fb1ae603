import { Avatar, Icon } from "@chakra-ui/react";
import { LuWorkflow } from "react-icons/lu";

/** A flow's picture, or the flow icon on the brand tint when it has none. */
export function FlowAvatar({ name, avatar, size = "md" }: { name: string; avatar?: string | null; size?: "xs" | "sm" | "md" }) {
  return (
    <Avatar.Root size={size} shape="rounded" bg="brand.subtle" color="brand.fg" borderWidth="1px" borderColor="brand.muted" flexShrink={0}>
      {avatar ? <Avatar.Image src={avatar} alt={name} /> : <Icon as={LuWorkflow} boxSize="55%" />}
    </Avatar.Root>
  );
}

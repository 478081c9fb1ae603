import { Avatar, Icon } from "@chakra-ui/react";
import { LuLibrary } from "react-icons/lu";

/** A knowledge base's photo, or the library icon on the brand tint when it has none. */
export function KnowledgeAvatar({ name, avatar, size = "md" }: { name: string; avatar?: string | null; size?: "sm" | "md" | "lg" | "xl" }) {
  return (
    <Avatar.Root size={size} shape="rounded" bg="brand.subtle" color="brand.fg" borderWidth="1px" borderColor="brand.muted">
      {avatar ? <Avatar.Image src={avatar} alt={name} /> : <Icon as={LuLibrary} boxSize="45%" />}
    </Avatar.Root>
  );
}

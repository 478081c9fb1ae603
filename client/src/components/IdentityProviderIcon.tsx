import { Icon, type IconProps } from "@chakra-ui/react";
import type { IconType } from "react-icons";
import { FaGithub } from "react-icons/fa";
import { FcGoogle } from "react-icons/fc";
import { LuKeyRound } from "react-icons/lu";

const ICONS: Record<string, IconType> = { github: FaGithub, google: FcGoogle };

/** An identity provider's mark: GitHub's and Google's own, a key for any other OpenID Connect provider. */
export function IdentityProviderIcon({ provider, ...props }: { provider: string } & IconProps) {
  return <Icon as={ICONS[provider] ?? LuKeyRound} boxSize="5" {...props} />;
}

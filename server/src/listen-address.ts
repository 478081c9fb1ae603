import type { AddressInfo } from "node:net";

/** Where the server listens, as the start log says it, and the address a browser on this machine opens. */
export interface ListenAddress {
  /** What the socket is bound to: "every IPv4 address (0.0.0.0), port 9380" or "127.0.0.1, port 9380". */
  bound: string;
  /** A URL that reaches the server from this machine: a wildcard address is bound, not opened, so loopback stands in. */
  url: string;
}

const WILDCARDS: Record<string, { words: string; loopback: string }> = {
  "0.0.0.0": { words: "every IPv4 address", loopback: "127.0.0.1" },
  // Node binds "::" dual-stack where the system allows, so IPv4 clients reach it too.
  "::": { words: "every IPv6 and IPv4 address", loopback: "127.0.0.1" },
};

export function listenAddressOf(address: AddressInfo): ListenAddress {
  const wildcard = WILDCARDS[address.address];
  const host = wildcard?.loopback ?? address.address;
  const urlHost = address.family === "IPv6" && !wildcard ? `[${host}]` : host;
  return {
    bound: wildcard ? `${wildcard.words} (${address.address}), port ${address.port}` : `${address.address}, port ${address.port}`,
    url: `http://${urlHost}:${address.port}`,
  };
}

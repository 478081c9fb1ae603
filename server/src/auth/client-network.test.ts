import { canonicalAddress, networkOf } from "./client-network";

describe("client networks", () => {
  it("puts IPv4 addresses of one /24 together, also when they arrive IPv4-mapped", () => {
    expect(networkOf("203.0.113.5")).toBe("203.0.113.0/24");
    expect(networkOf("::ffff:203.0.113.77")).toBe("203.0.113.0/24");
    expect(networkOf("203.0.114.5")).not.toBe(networkOf("203.0.113.5"));
  });

  it("puts IPv6 addresses of one /64 together, however they are spelled", () => {
    expect(networkOf("2001:db8:1:2::1")).toBe("2001:0db8:0001:0002::/64");
    expect(networkOf("2001:DB8:1:2:ffff:ffff:ffff:ffff")).toBe(networkOf("2001:db8:1:2::1"));
    expect(networkOf("2001:db8:1:3::1")).not.toBe(networkOf("2001:db8:1:2::1"));
    expect(canonicalAddress("::1")).toBe("0000:0000:0000:0000:0000:0000:0000:0001");
    expect(canonicalAddress("fe80::1%eth0")).toBe("fe80:0000:0000:0000:0000:0000:0000:0001");
  });

  it("names a missing or malformed address unknown", () => {
    expect(networkOf(undefined)).toBe("unknown");
    expect(canonicalAddress("not an address")).toBe("unknown");
  });
});

import { listenAddressOf } from "./listen-address";

describe("the address the start log gives", () => {
  it("says that a wildcard bind listens on every address, and offers loopback to open", () => {
    expect(listenAddressOf({ address: "0.0.0.0", family: "IPv4", port: 9380 })).toEqual({
      bound: "every IPv4 address (0.0.0.0), port 9380",
      url: "http://127.0.0.1:9380",
    });
    expect(listenAddressOf({ address: "::", family: "IPv6", port: 9380 }).bound).toBe("every IPv6 and IPv4 address (::), port 9380");
  });

  it("names a single bound address as it is", () => {
    expect(listenAddressOf({ address: "127.0.0.1", family: "IPv4", port: 9399 })).toEqual({ bound: "127.0.0.1, port 9399", url: "http://127.0.0.1:9399" });
    expect(listenAddressOf({ address: "::1", family: "IPv6", port: 80 }).url).toBe("http://[::1]:80");
  });
});

import { memberActions } from "./memberActions";

describe("the actions a member's menu offers", () => {
  const owner = { userId: "o", role: "owner" };
  const admin = { userId: "a", role: "admin" };
  const normal = { userId: "n", role: "normal" };

  it("offers the owner every action on others, and none on itself", () => {
    expect(memberActions("owner", normal, "o")).toEqual({ makeAdmin: true, makeNormal: false, transfer: true, remove: true });
    expect(memberActions("owner", admin, "o")).toEqual({ makeAdmin: false, makeNormal: true, transfer: true, remove: true });
    expect(memberActions("owner", owner, "o")).toEqual({ makeAdmin: false, makeNormal: false, transfer: false, remove: false });
  });

  it("offers an admin roles and removal, never on the owner nor handing ownership on", () => {
    expect(memberActions("admin", normal, "a")).toEqual({ makeAdmin: true, makeNormal: false, transfer: false, remove: true });
    expect(memberActions("admin", owner, "a")).toEqual({ makeAdmin: false, makeNormal: false, transfer: false, remove: false });
  });

  it("offers a normal member nothing", () => {
    expect(Object.values(memberActions("normal", admin, "n"))).toEqual([false, false, false, false]);
  });
});

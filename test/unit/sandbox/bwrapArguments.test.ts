import { describe, expect, it } from "vitest";
import { bwrapArguments, orderedMounts } from "../../../src/core/sandbox";
import type { SandboxLayout } from "../../../src/core/sandbox/sandboxLayout";

const layout = (mounts: SandboxLayout["mounts"], env: Record<string, string> = { PATH: "/usr/bin" }): SandboxLayout => ({ cwd: "/w", env, mounts, stubs: [] });

describe("bubblewrap's command line", () => {
  it("makes every namespace new, clears the environment and sets only the layout's", () => {
    const args = bwrapArguments(layout([], { PATH: "/usr/bin", HOME: "/home/u" }));
    for (const flag of ["--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--clearenv"])
      expect(args).toContain(flag);
    expect(args.indexOf("--clearenv")).toBeLessThan(args.indexOf("--setenv"));
    expect(args.join(" ")).toContain("--setenv PATH /usr/bin --setenv HOME /home/u");
    expect(args.slice(-6)).toEqual(["--proc", "/proc", "--dev", "/dev", "--chdir", "/w"]);
  });

  it("mounts a folder before what is mounted inside it, whatever order they came in", () => {
    const mounts = orderedMounts([
      { kind: "readOnly", path: "/w/.git" },
      { kind: "emptyFolder", path: "/w/.claude" },
      { kind: "writable", path: "/w" },
      { kind: "scratch", path: "/home/u" },
      { kind: "readOnly", path: "/home/u/.nvm/versions/node/v20" },
    ]);
    expect(mounts.map((m) => m.path)).toEqual(["/w", "/w/.git", "/w/.claude", "/home/u", "/home/u/.nvm/versions/node/v20"]);
  });

  it("one mount per path, the later one winning (a folder both readable and writable is writable)", () => {
    const mounts = orderedMounts([
      { kind: "readOnly", path: "/w" },
      { kind: "writable", path: "/w" },
    ]);
    expect(mounts).toEqual([{ kind: "writable", path: "/w" }]);
  });

  it("each kind as bubblewrap spells it", () => {
    const args = bwrapArguments(
      layout([
        { kind: "readOnly", path: "/usr" },
        { kind: "readOnly", path: "/run/sw/bin", source: "/nix/store/x/bin" },
        { kind: "writable", path: "/w" },
        { kind: "scratch", path: "/tmp" },
        { kind: "emptyFolder", path: "/w/.vscode" },
        { kind: "emptyFile", path: "/etc/shadow" },
        { kind: "symlink", path: "/bin", target: "usr/bin" },
      ]),
    ).join(" ");
    expect(args).toContain("--ro-bind /usr /usr");
    expect(args).toContain("--ro-bind /nix/store/x/bin /run/sw/bin");
    expect(args).toContain("--bind /w /w");
    expect(args).toContain("--tmpfs /tmp");
    expect(args).toContain("--tmpfs /w/.vscode --remount-ro /w/.vscode");
    expect(args).toContain("--ro-bind /dev/null /etc/shadow");
    expect(args).toContain("--symlink usr/bin /bin");
  });

  it("never root inside: the layout's user, every capability dropped, no user namespace of its own", () => {
    const args = bwrapArguments({ ...layout([]), user: { uid: 65534, gid: 65534 } }).join(" ");
    expect(args).toContain("--unshare-user");
    expect(args).toContain("--uid 65534 --gid 65534 --cap-drop ALL --disable-userns");
  });

  it("pins the folders under a writable root onto themselves, then binds the root again over them, before what is read-only inside", () => {
    const args = bwrapArguments({
      ...layout([
        { kind: "writable", path: "/w" },
        { kind: "readOnly", path: "/w/a/b/.git" },
      ]),
      pins: ["/w/a/b", "/w/a"],
    }).join(" ");
    expect(args).toContain("--bind /w /w --ro-bind /w/a /w/a --ro-bind /w/a/b /w/a/b --bind /w /w --ro-bind /w/a/b/.git /w/a/b/.git");
  });
});

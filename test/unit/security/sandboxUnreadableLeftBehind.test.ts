/**
 * Issue 31, what remained of item 4: a folder the look afterwards cannot read. An unasked command
 * plants a nested repository (`sub/.git` with core.fsmonitor, run at the next `git status` there)
 * and then takes the read permission away from the folder holding it (`chmod 000 sub`, or from a
 * parent, or only r, or only x). An extension host that is not root cannot look inside, and the
 * old look passed the command silently. Root reads every folder whatever its mode, so these run
 * the command and the look in a child process as a normal user (setpriv, uid 65534), and skip with
 * the reason printed where that cannot be done. Each attack must be reported: a folder the
 * command made is opened again (u+rwx) and looked into, a folder that was there before is reported
 * as not checked. Controls: ordinary folders, and a folder of another user's that the command
 * could never enter, ask nothing.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sandboxAvailable } from "../../support/sandbox";
import { cannotRunAsUser, removeWorkspaces, runAsUser as run, workspaceOfUser } from "./support/asNormalUser";

vi.setConfig({ testTimeout: 60_000 });

const why = process.platform === "linux" && (await sandboxAvailable("a folder the look afterwards cannot read")) ? cannotRunAsUser() : "no sandbox";
if (why !== undefined) console.warn(`a folder the look afterwards cannot read: skipped: ${why}`);

afterEach(removeWorkspaces);

const AS_NOBODY = ["--reuid", "65534", "--regid", "65534", "--clear-groups"];
const REPO = join(__dirname, "..", "..", "..");
const REVIEW = join(REPO, "src", "core", "tools", "leftBehindReview.ts");

const PLANT = "mkdir -p sub/.git && printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' > sub/.git/config";

/** Past the filesystem's timestamp granularity (unreadableFolders.ts believes a change time only then). */
const settled = () => new Promise((resolve) => setTimeout(resolve, 250));

/** The command (and a harmless control after it) run unasked in the sandbox, then the look, as the normal user. */
const runAsUser = (ws: string, script: string) => run(ws, `${script} && echo CONTROL-RAN`);

describe.skipIf(why !== undefined)("a folder the look after an unasked command cannot read", () => {
  it("sub/.git planted, then sub made unreadable (chmod 000): found, and what it holds said", () => {
    const ws = workspaceOfUser();
    const { end, found } = runAsUser(ws, `${PLANT} && chmod 000 sub`);
    expect(end).toMatchObject({ kind: "exited", exitCode: 0 });
    expect(found.map((f) => f.said)).toEqual(["created sub/.git with core.fsmonitor, a program git would run"]);
  });

  it("planted deeper, a parent it made unreadable (chmod 000 a, the repository in a/b/sub)", () => {
    const ws = workspaceOfUser();
    const { found } = runAsUser(ws, `mkdir -p a/b && cd a/b && ${PLANT} && cd ../.. && chmod 000 a`);
    expect(found.map((f) => f.said)).toEqual(["created a/b/sub/.git with core.fsmonitor, a program git would run"]);
  });

  it("only the read bit taken (chmod 311: entered, not listed) or only the search bit (chmod 644: listed, not entered)", () => {
    const ws = workspaceOfUser();
    const { found } = runAsUser(ws, `mkdir x y && (cd x && ${PLANT}) && (cd y && ${PLANT}) && chmod 311 x && chmod 644 y`);
    expect(found.map((f) => f.said).sort()).toEqual([
      "created x/sub/.git with core.fsmonitor, a program git would run",
      "created y/sub/.git with core.fsmonitor, a program git would run",
    ]);
  });

  it("a folder that was there before, made unreadable: reported as not checked, never passed", () => {
    const ws = workspaceOfUser("mkdir -p src/lib && echo x > src/lib/a.txt");
    const { found } = runAsUser(ws, `cd src/lib && ${PLANT} && cd ../.. && chmod 000 src`);
    expect(found).toEqual([
      {
        path: join(ws, "src"),
        said: expect.stringContaining("left src unreadable"),
        unchecked: true,
      },
    ]);
    expect(found[0]!.said).toMatch(/could not look inside it/);
  });

  it("the workspace folder itself made unreadable (chmod 000 .): reported as not checked", () => {
    const ws = workspaceOfUser();
    const { found } = runAsUser(ws, `${PLANT} && chmod 000 .`);
    expect(found).toEqual([{ path: ws, said: expect.stringContaining("left the workspace folder itself unreadable"), unchecked: true, root: true }]);
  });

  it("a folder unreadable before, opened by the command, planted in and closed again: reported", async () => {
    const ws = workspaceOfUser("mkdir -p vault/inner && chmod 000 vault");
    await settled();
    const { found } = runAsUser(ws, `chmod 700 vault && (cd vault/inner && ${PLANT}) && chmod 000 vault`);
    expect(found).toEqual([{ path: join(ws, "vault"), said: expect.stringContaining("left vault unreadable"), unchecked: true }]);
  });

  it("a folder searchable but not listable before (chmod 311), planted in below without changing it: reported", async () => {
    const ws = workspaceOfUser("mkdir -p drop/inner && chmod 311 drop");
    await settled();
    const { found } = runAsUser(ws, `cd drop/inner && ${PLANT}`);
    expect(found).toEqual([{ path: join(ws, "drop"), said: expect.stringContaining("left drop unreadable"), unchecked: true }]);
  });

  it("Remove deletes a folder left unreadable whole, as a normal user (a plain recursive rm stops at EACCES)", () => {
    const ws = workspaceOfUser("mkdir -p src/a/.git && echo x > src/a/.git/config && chmod 000 src/a/.git src/a src");
    const remove = (how: string) =>
      execFileSync(
        "setpriv",
        [...AS_NOBODY, process.execPath, "--import", "tsx", "--input-type=module", "-e", `${how}.then((r) => console.log(r), (e) => console.log(e.code))`],
        { cwd: REPO, encoding: "utf8" },
      ).trim();
    expect(remove(`import("node:fs/promises").then((fs) => fs.rm(${JSON.stringify(join(ws, "src"))}, { recursive: true, force: true }))`)).toBe("EACCES");
    expect(remove(`import(${JSON.stringify(REVIEW)}).then((m) => m.default.removeWhole(${JSON.stringify(join(ws, "src"))}))`)).toBe("true");
    expect(existsSync(join(ws, "src"))).toBe(false);
  });

  it("control: the user's own folder unreadable before and untouched by the command asks nothing", async () => {
    const ws = workspaceOfUser("mkdir -p vault/inner && chmod 000 vault");
    await settled();
    const { found } = runAsUser(ws, "mkdir -p src && echo x > src/file.txt");
    expect(found).toEqual([]);
  });

  it("control: ordinary folders, and another user's folder the command could never enter, ask nothing", () => {
    const ws = workspaceOfUser();
    mkdirSync(join(ws, "data"), { mode: 0o700 }); // root's: like a database container's volume
    chmodSync(join(ws, "data"), 0o700);
    const { end, found } = runAsUser(ws, "mkdir -p src/made && echo x > src/made/file.txt && chmod 700 src/made");
    expect(end).toMatchObject({ kind: "exited", exitCode: 0 });
    expect(found).toEqual([]);
  });
});

/**
 * The CLI's live status file, read leniently: the format is internal to the CLI, and the file is
 * rewritten in place, so a read can catch half of it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseStatusFile, readStatusFile, STATUS_FILE_MAX_BYTES, statusFilePid } from "../../../src/core/process/statusFile";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

/** Written by CLI 2.1.330 while a permission prompt waited (paths scrubbed). */
const WAITING_2_1_330 =
  '{"pid":13880,"sessionId":"b28135b9-c638-4632-9c91-7e100fefe5ce","cwd":"/home/user/project","startedAt":1795333521562,' +
  '"procStart":"878603","version":"2.1.330","peerProtocol":1,"peerFeatures":["notify_idle","reply_across_default_dirs","artifact_yield"],' +
  '"kind":"interactive","entrypoint":"cli","pidDomain":"linux:3d1219c7c4c5404aaa1f6d2a48adfda4:pid:[4026531836]","asksForConvertedSkills":null,' +
  '"messagingSocketPath":"/tmp/cc-socks/13880.sock","name":"project-cc","nameSource":"derived","nameSince":1795333521562,' +
  '"status":"waiting","updatedAt":1795333523182,"statusUpdatedAt":1795333523182,"waitingFor":"permission prompt"}';

describe("status file", () => {
  it("reads what the real CLI writes, ignoring the fields Arcadia does not use", () => {
    expect(parseStatusFile(WAITING_2_1_330, 13880)).toEqual({
      ok: true,
      status: {
        pid: 13880,
        sessionId: "b28135b9-c638-4632-9c91-7e100fefe5ce",
        cwd: "/home/user/project",
        procStart: "878603",
        status: "waiting",
        rawStatus: "waiting",
        waitingFor: "permission prompt",
        name: "project-cc",
        nameSource: "derived",
        kind: "interactive",
        version: "2.1.330",
        startedAt: 1795333521562,
        statusUpdatedAt: 1795333523182,
        updatedAt: 1795333523182,
      },
    });
  });

  it("tolerates missing fields and fields of the wrong type", () => {
    const r = parseStatusFile('{"sessionId": 42, "status": "idle", "procStart": 878603, "cwd": "/w"}', 7);
    expect(r).toEqual({ ok: true, status: { pid: 7, status: "idle", rawStatus: "idle", cwd: "/w" } });
  });

  it("keeps a status word it does not know out of `status`, so callers fall back to the transcript", () => {
    const r = parseStatusFile('{"pid": 7, "status": "pondering"}', 7);
    expect(r.ok && r.status.status).toBeUndefined();
    expect(r.ok && r.status.rawStatus).toBe("pondering");
  });

  it("reads `shell` (turn over, a background Bash task still running) as idle", () => {
    const r = parseStatusFile('{"pid": 7, "status": "shell"}', 7);
    expect(r.ok && r.status).toMatchObject({ status: "idle", backgroundShell: true, rawStatus: "shell" });
  });

  it("takes Windows' procStartFt as the start time", () => {
    const r = parseStatusFile('{"pid": 7, "procStartFt": "134398071215620000"}', 7);
    expect(r.ok && r.status.procStart).toBe("134398071215620000");
  });

  it("says torn for a half-written file and never throws on junk", () => {
    expect(parseStatusFile(WAITING_2_1_330.slice(0, 300), 13880)).toEqual({ ok: false, reason: "torn" });
    expect(parseStatusFile("", 1)).toEqual({ ok: false, reason: "torn" });
    expect(parseStatusFile("[1,2]", 1)).toEqual({ ok: false, reason: "not an object" });
    expect(parseStatusFile("null", 1)).toEqual({ ok: false, reason: "not an object" });
    expect(parseStatusFile('{"status":"idle"}')).toEqual({ ok: false, reason: "no pid" });
  });

  it("names status files by pid and leaves the folder's other files alone", () => {
    expect(statusFilePid("13880.json")).toBe(13880);
    expect(statusFilePid("/x/sessions/13880.json")).toBe(13880);
    expect(statusFilePid("13711.87cbc208c0559f793e0a27e6049edfa532e638f9751b25f4c2efaae341e21b1b.key")).toBeUndefined();
    expect(statusFilePid("13880.json.tmp.1a2b")).toBeUndefined();
    expect(statusFilePid("abc.json")).toBeUndefined();
  });

  it("reads <config>/sessions/<pid>.json, and reports a missing one without throwing", async () => {
    const config = tempDir();
    mkdirSync(join(config, "sessions"));
    writeFileSync(join(config, "sessions", "13880.json"), WAITING_2_1_330);
    const read = await readStatusFile(config, 13880);
    expect(read.ok && read.status.waitingFor).toBe("permission prompt");
    expect(await readStatusFile(config, 99)).toEqual({ ok: false, reason: "missing" });
  });

  it("reports a status file far bigger than the CLI writes as unreadable, without reading it whole", async () => {
    const config = tempDir();
    mkdirSync(join(config, "sessions"));
    // Valid JSON, padded past the bound: only its size can tell it from the CLI's.
    writeFileSync(join(config, "sessions", "13880.json"), `${WAITING_2_1_330}${" ".repeat(STATUS_FILE_MAX_BYTES)}`);
    expect(await readStatusFile(config, 13880)).toEqual({ ok: false, reason: "unreadable" });
  });
});

/**
 * One unasked command through the real sandbox and the look at what it left behind, in a process
 * of its own: a test starts it as a normal user (setpriv) to see what an extension host that is
 * not root can read afterwards (root reads every folder, whatever its mode), and what such a
 * user's sandbox is made of. Prints its end, the LeftBehind list, its output and bubblewrap's
 * arguments as JSON on its last line. Usage: `node --import tsx leftBehindChild.ts <workspace> <shell script>`.
 */
import { BubblewrapSandbox, FolderWalks, StandIns } from "../../src/core/sandbox";
import { ProcessCommandRunner } from "../../src/core/tools/processCommandRunner";

async function main(): Promise<void> {
  const [workspace, script] = process.argv.slice(2) as [string, string];
  const sandbox = new BubblewrapSandbox({
    settings: () => ({ mode: "unaskedCommands", readablePaths: [] }),
    standIns: new StandIns(),
    walks: new FolderWalks(),
  });
  const launch = await sandbox.launch({ cwd: workspace, folders: [workspace], agentCwd: undefined });
  const runner = new ProcessCommandRunner();
  const argv = ["/bin/sh", "-c", script];
  const handle = await runner.start({ command: script, cwd: workspace, argv, sandbox: launch });
  const end = await handle.ended;
  launch.release();
  const found = await launch.leftBehind();
  const output = runner.partialOutput(handle.id).output;
  runner.release(handle.id);
  runner.dispose();
  console.log(JSON.stringify({ end, found, output, args: launch.args }));
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

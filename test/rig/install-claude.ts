// `npm run install:claude`: installs (once, into a cache folder) and checks the pinned CLI, so a
// fresh CI machine pays the ~380 MB download before the tests start, not inside one's timeout.
import { CLAUDE_CODE_VERSION, claudeBinary, claudeInstallDir } from "./cli-binary.js";

const bin = claudeBinary();
console.log(`Claude Code ${CLAUDE_CODE_VERSION} ready at ${bin} (cache: ${claudeInstallDir()})`);

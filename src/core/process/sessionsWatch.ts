/**
 * chokidar on the sessions folder. Unlike util/fileWatch's default it also reports removals: the
 * CLI deletes its status file on /exit and when its terminal closes, which is the quickest sign
 * that it is going away.
 */
import { chokidarFolderWatch } from "../util/fileWatch";

export const sessionsFolderWatch = chokidarFolderWatch({ depth: 0, events: ["add", "change", "unlink"] });

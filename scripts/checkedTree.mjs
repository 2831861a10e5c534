// What the lint's tree checks (check-layers, check-import-circles, check-file-sizes) share: the
// repository they look at, and its code files under a folder.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** `--root <repository>` (tests plant files in a throwaway tree), else this repository. */
export function checkedRoot() {
  const rootArg = process.argv.indexOf("--root");
  return rootArg >= 0 ? resolve(process.argv[rootArg + 1]) : resolve(dirname(new URL(import.meta.url).pathname), "..");
}

/** Every file under `dir` whose name matches `pattern` (none when `dir` does not exist). */
export function filesUnder(dir, pattern) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, pattern) : pattern.test(name) ? [path] : [];
  });
}

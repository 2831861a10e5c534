/** Whether one absolute path lies inside a folder, by path segments (the containment test every path check uses). */
import { isAbsolute, relative, sep } from "node:path";

/** `path` is `folder` or lies below it (by path segments: /ab is not inside /a). Both absolute, resolved. */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

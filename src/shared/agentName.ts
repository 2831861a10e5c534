/**
 * The longest name an agent can be given (UTF-16 units, after trimming). The one definition: the
 * panel's schema (protocols/panel.ts) refuses longer renames, the manager cuts longer names, and
 * the webview, which may import only types from here, types its copy as `typeof
 * AGENT_NAME_MAX_LENGTH` (the literal type 80), so a change here fails the webview's typecheck
 * until its copy follows.
 */
export const AGENT_NAME_MAX_LENGTH = 80;

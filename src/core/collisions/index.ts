/** src/core/collisions: its public face — what the rest of Arcadia may import from it. */
export { nodeCollisionDisk } from "./collisionDisk";
export { CollisionGuard } from "./collisionGuard";
export { type CollisionMode, shownFrom, withCollisionGuard } from "./collisionHooks";

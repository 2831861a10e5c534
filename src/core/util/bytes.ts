/** Byte sizes in words (10 * MB, not 10485760): the tools' caps, declared and enforced, read at a glance. */
export const KB = 1024;
export const MB = 1024 * KB;

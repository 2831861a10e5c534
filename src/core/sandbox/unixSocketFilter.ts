/**
 * A seccomp filter (classic BPF, as bubblewrap's `--seccomp FD` loads it) that refuses to make
 * unix sockets: `socket(AF_UNIX, …)` fails with EPERM. The network namespace cuts every IP
 * connection, but a unix socket is reached through the file system, and a listening one in any
 * folder the sandbox can see (a language server's, a docker-like daemon's, the user's own
 * session's in the workspace) would be reachable from inside. Made as @anthropic-ai/sandbox-runtime
 * does it (its vendored filter blocks socket(AF_UNIX) the same way); `socketpair`, which connects a
 * process only to its own children (Node's child-process channel), stays allowed.
 * x86_64 (and its x32 numbers), aarch64 and i386 (whose `socketcall` cannot be inspected, so is
 * refused whole); any other architecture passes unfiltered.
 */

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const AUDIT_ARCH_I386 = 0x40000003;
const AF_UNIX = 1;
const EPERM = 1;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
/** struct seccomp_data: nr at 0, arch at 4, args[0] (its low half on these little-endian machines) at 16. */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

type Step =
  { label?: string; load: number } | { label?: string; equals: number; then: string | null; otherwise: string | null } | { label?: string; ret: number };

const PROGRAM: Step[] = [
  { load: ARCH },
  { equals: AUDIT_ARCH_X86_64, then: "x86_64", otherwise: null },
  { equals: AUDIT_ARCH_AARCH64, then: "aarch64", otherwise: null },
  { equals: AUDIT_ARCH_I386, then: "i386", otherwise: "allow" },
  { label: "x86_64", load: NR },
  { equals: 41, then: "family", otherwise: null },
  { equals: 0x40000000 + 41, then: "family", otherwise: "allow" },
  { label: "aarch64", load: NR },
  { equals: 198, then: "family", otherwise: "allow" },
  { label: "i386", load: NR },
  { equals: 102, then: "deny", otherwise: null },
  { equals: 359, then: "family", otherwise: "allow" },
  { label: "family", load: ARG0 },
  { equals: AF_UNIX, then: "deny", otherwise: "allow" },
  { label: "allow", ret: SECCOMP_RET_ALLOW },
  { label: "deny", ret: SECCOMP_RET_ERRNO | EPERM },
];

/** The filter as the kernel's struct sock_filter array (8 bytes a step, the machine's byte order). */
export function unixSocketFilter(): Uint8Array {
  const at = new Map(PROGRAM.flatMap((step, i) => (step.label ? [[step.label, i] as const] : [])));
  const out = new DataView(new ArrayBuffer(PROGRAM.length * 8));
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  PROGRAM.forEach((step, i) => {
    const jump = (label: string | null) => (label === null ? 0 : (at.get(label) as number) - (i + 1));
    let code: number;
    let jt = 0;
    let jf = 0;
    let k: number;
    if ("load" in step)
      [code, k] = [0x20, step.load]; // BPF_LD | BPF_W | BPF_ABS
    else if ("ret" in step)
      [code, k] = [0x06, step.ret]; // BPF_RET | BPF_K
    else [code, jt, jf, k] = [0x15, jump(step.then), jump(step.otherwise), step.equals]; // BPF_JMP | BPF_JEQ | BPF_K
    out.setUint16(i * 8, code, little);
    out.setUint8(i * 8 + 2, jt);
    out.setUint8(i * 8 + 3, jf);
    out.setUint32(i * 8 + 4, k >>> 0, little);
  });
  return new Uint8Array(out.buffer);
}

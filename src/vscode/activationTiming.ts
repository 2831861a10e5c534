/**
 * The activation figure in the log: the bundle's module load (its first and last statements,
 * set by esbuild.js's banner and footer) plus activate() itself, wall-clock and CPU. On a busy
 * machine the wall time also counts time the thread waited; CPU time says what was ours.
 */
declare const __arcadiaLoadStarted: number | undefined;
declare const __arcadiaLoadEnded: number | undefined;
declare const __arcadiaLoadCpuUsed: NodeJS.CpuUsage | undefined;

/** CPU milliseconds (user + system) of a process.cpuUsage() difference. */
const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

/** Call at the start of activate(); the result's `summary()` at its end. */
export function activationTimer(): { summary(): string } {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const moduleLoadCpuMs = typeof __arcadiaLoadCpuUsed === "object" ? cpuMs(__arcadiaLoadCpuUsed) : 0;
  const moduleLoadMs = typeof __arcadiaLoadStarted === "number" && typeof __arcadiaLoadEnded === "number" ? __arcadiaLoadEnded - __arcadiaLoadStarted : 0;
  return {
    summary() {
      // What VS Code counts as an extension's activation: loading its code, then the activate() call.
      const activateMs = performance.now() - started;
      const activateCpuMs = cpuMs(process.cpuUsage(cpuAtStart));
      return (
        `Arcadia activated in ${Math.round(moduleLoadMs + activateMs)} ms (module load ${moduleLoadMs.toFixed(1)} ms + activate ${activateMs.toFixed(1)} ms; ` +
        `CPU ${moduleLoadCpuMs.toFixed(1)} + ${activateCpuMs.toFixed(1)} ms)`
      );
    },
  };
}

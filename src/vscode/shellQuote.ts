/**
 * A command line for the terminal's shell. Arguments that need it are quoted for POSIX shells,
 * PowerShell (which also needs `&` to run a quoted path) or cmd.
 */
type Flavour = "posix" | "powershell" | "cmd";

function flavourOf(shellPath: string): Flavour {
  const name = shellPath.toLowerCase().split(/[\\/]/).pop() ?? "";
  if (name.startsWith("pwsh") || name.startsWith("powershell")) return "powershell";
  if (name === "cmd.exe" || name === "cmd") return "cmd";
  return "posix";
}

const SAFE = /^[A-Za-z0-9_\-.,/:=@%+]+$/;

function quote(arg: string, flavour: Flavour): string {
  if (arg !== "" && SAFE.test(arg)) return arg;
  if (flavour === "posix") return `'${arg.replace(/'/g, `'\\''`)}'`;
  if (flavour === "powershell") return `'${arg.replace(/'/g, "''")}'`;
  return `"${arg.replace(/"/g, '""')}"`;
}

export function shellCommandLine(command: string, args: readonly string[], shellPath: string): string {
  const flavour = flavourOf(shellPath);
  const quotedCommand = quote(command, flavour);
  const prefix = flavour === "powershell" && quotedCommand !== command ? "& " : "";
  return [prefix + quotedCommand, ...args.map((a) => quote(a, flavour))].join(" ");
}

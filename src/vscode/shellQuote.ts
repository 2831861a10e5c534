/**
 * A command line for the terminal's shell. Arguments that need it are quoted for POSIX shells,
 * PowerShell (which also needs `&` to run a quoted path) or cmd.
 */
import { isPlainWord, posixQuote } from "../core/util";

type Flavour = "posix" | "powershell" | "cmd";

function flavourOf(shellPath: string): Flavour {
  const name = shellPath.toLowerCase().split(/[\\/]/).pop() ?? "";
  if (name.startsWith("pwsh") || name.startsWith("powershell")) return "powershell";
  if (name === "cmd.exe" || name === "cmd") return "cmd";
  return "posix";
}

function quote(arg: string, flavour: Flavour): string {
  if (flavour === "posix") return posixQuote(arg);
  if (isPlainWord(arg)) return arg;
  if (flavour === "powershell") return `'${arg.replace(/'/g, "''")}'`;
  return `"${arg.replace(/"/g, '""')}"`;
}

export function shellCommandLine(command: string, args: readonly string[], shellPath: string): string {
  const flavour = flavourOf(shellPath);
  const quotedCommand = quote(command, flavour);
  const prefix = flavour === "powershell" && quotedCommand !== command ? "& " : "";
  return [prefix + quotedCommand, ...args.map((a) => quote(a, flavour))].join(" ");
}

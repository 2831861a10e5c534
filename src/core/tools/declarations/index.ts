/**
 * What a tool declaration is (./arcadiaTool.ts). The list of declared tools, beside their
 * handlers, is ../arcadiaTools.ts.
 */
export type { ArcadiaTool, ArgsOf, CallWords, DeclaredTool } from "./arcadiaTool";

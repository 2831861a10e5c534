/** get_agent_status, declared: the calling agent's own status and spend, as its card shows them. Handler: ../getAgentStatus.ts. */
import { defineArcadiaTool } from "./arcadiaTool";

export const getAgentStatus = defineArcadiaTool({
  name: "get_agent_status",
  title: "Get your own status and cost",
  description:
    "What Arcadia's panel shows the user about you, the agent calling: your name there, your status, the context window used, the tokens and " +
    "estimated cost (USD) of your session so far, the branch you work on, a usage limit if one stops you, " +
    "and your budget (what you spent against the user's cap, whether you are paused at it). Only your own: it takes no input.",
  input: () => ({}),
  annotations: { readOnlyHint: true },
  words: { label: "Checking its status", action: "check its status", otherwise: { label: "Checking its status", action: "check its status" } },
  display: () => "status and cost",
});

/**
 * A prompt waiting for the user on a card (command, path, write or permission) with Allow / Deny /
 * Always allow, or with the words the prompt brings for its two answers (Remove / Keep: `wording`),
 * the harmless one first and emphasized.
 */
import type { PromptView } from "../../../src/shared/protocol";
import { useSendOnce } from "../useSendOnce";
import { post } from "../clients/panelClient";
import { ActionButton } from "./ActionButton";
import { Codicon } from "./Codicon";

type Kind = PromptView["kind"];

const TITLE: Record<Kind, string> = {
  command: "Run command?",
  path: "Outside the workspace:",
  write: "Write file?",
  permission: "Permission:",
};

const ICON: Record<Kind, string> = {
  command: "terminal",
  path: "folder",
  write: "diff",
  permission: "shield",
};

/** The look-closer button: the diff of a write, the terminal where Claude's own prompt waits. */
const REVEAL: Partial<Record<Kind, { text: string; label: (subject: string) => string; title: string }>> = {
  write: { text: "Show diff", label: (s) => `Show the diff for ${s}`, title: "Open the proposed change as a diff" },
  permission: { text: "Show terminal", label: (s) => `Show the terminal asking about ${s}`, title: "Show the terminal where Claude is asking" },
};

/** Something waiting for the user's answer, answered here (then `onAnswered`: the panel keeps its agent in view). Key it by the prompt's `id`. */
export function Prompt({ prompt, onAnswered }: { prompt: PromptView; onAnswered?: () => void }) {
  const { sent, once } = useSendOnce();
  const { id, kind, subject, reason } = prompt;
  const answer = (decision: "allow" | "deny" | "alwaysAllow") =>
    once(() => {
      post({ type: "answerPrompt", id, decision });
      onAnswered?.();
    });
  const reveal = REVEAL[kind];
  const words = prompt.wording;
  const title = words?.title ?? TITLE[kind] ?? "Answer needed:";
  const allowButton = (
    <ActionButton
      key="allow"
      testId="prompt-allow"
      appearance={words?.harmless === "deny" ? "secondary" : "primary"}
      label={`${words?.allow ?? "Allow"} ${subject}`}
      title={words ? `${words.allow} ${subject}` : "Allow this once"}
      disabled={sent}
      onPress={() => answer("allow")}
    >
      {words?.allow ?? "Allow"}
    </ActionButton>
  );
  const denyButton = (
    <ActionButton
      key="deny"
      testId="prompt-deny"
      appearance={words?.harmless === "deny" ? "primary" : "secondary"}
      label={`${words?.deny ?? "Deny"} ${subject}`}
      title={words ? `${words.deny} ${subject}` : "Refuse; Claude is told no"}
      disabled={sent}
      onPress={() => answer("deny")}
    >
      {words?.deny ?? "Deny"}
    </ActionButton>
  );
  return (
    <div className={`prompt prompt-${kind}`} data-testid="prompt" data-prompt-id={id} data-kind={kind} role="group" aria-label={`${title} ${subject}`}>
      <div className="prompt-question">
        <Codicon name={ICON[kind] ?? "question"} className="prompt-icon" />
        <span className="prompt-title">{title}</span>
        {/* A text node: subjects come from commands and paths and are never parsed as HTML. */}
        <span className="prompt-subject" title={subject}>
          {subject}
        </span>
      </div>
      {/* Why Arcadia asks about a command it could have run unasked ("its folder is in another git
          repository…"): the user decides knowing what made it look unsafe. */}
      {reason && (
        <div className="prompt-reason" data-testid="prompt-reason">
          Asked because {reason}.
        </div>
      )}
      <div className="prompt-actions">
        {words?.harmless === "deny" ? [denyButton, allowButton] : [allowButton, denyButton]}
        {prompt.canAlwaysAllow && (
          <ActionButton
            testId="prompt-always"
            label={`Always allow ${subject}`}
            title="Allow, and do not ask again for this"
            disabled={sent}
            onPress={() => answer("alwaysAllow")}
          >
            Always allow
          </ActionButton>
        )}
        {reveal && (
          // Looking is not answering: this one stays enabled.
          <ActionButton
            testId="prompt-reveal"
            appearance="secondary"
            label={reveal.label(subject)}
            title={reveal.title}
            onPress={() => post({ type: "revealPrompt", id })}
          >
            {reveal.text}
          </ActionButton>
        )}
      </div>
    </div>
  );
}

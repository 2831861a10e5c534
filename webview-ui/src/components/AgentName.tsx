/** An agent's name on its card, renamed in place, with the length rule the extension applies too. */
import { VSCodeButton, VSCodeTextField } from "@vscode/webview-ui-toolkit/react";
import { useEffect, useId, useRef, useState, type KeyboardEvent, type SyntheticEvent } from "react";
import { post } from "../clients/panelClient";
import { Codicon } from "./Codicon";
import type { AGENT_NAME_MAX_LENGTH } from "../../../src/shared/protocol";

// The webview may take only types from the extension's src/: the literal type ties this value to
// the protocol's (the one definition), so the two cannot drift apart.
export const MAX_NAME_LENGTH: typeof AGENT_NAME_MAX_LENGTH = 80;

/** Why a typed name cannot be saved, or null when it can. */
export function nameProblem(raw: string): string | null {
  const name = raw.trim();
  if (name.length === 0) return "A name cannot be empty.";
  if (name.length > MAX_NAME_LENGTH) return `A name has at most ${MAX_NAME_LENGTH} characters.`;
  return null;
}

interface TextFieldElement extends HTMLElement {
  value: string;
  control?: HTMLInputElement;
}

// Clicks and keys inside the name area must not also focus the agent's terminal (the card's action).
const stop = (e: SyntheticEvent) => e.stopPropagation();

/** The agent's name, renamed inline: double-click or the pencil, Enter saves, Escape cancels. */
export function AgentName({ id, name, onEditEnd }: { id: string; name: string; onEditEnd: () => void }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name);
  const [problem, setProblem] = useState<string | null>(null);
  // Shown until the extension confirms, so a saved name does not flick back to the old one.
  const [pending, setPending] = useState<string | null>(null);
  const field = useRef<TextFieldElement | null>(null);
  const finished = useRef(false);
  const problemId = useId();

  // Any name from the extension is the truth: it replaces the optimistic one.
  useEffect(() => setPending(null), [name]);

  useEffect(() => {
    if (!editing) return;
    const el = field.current;
    el?.focus();
    // The toolkit writes the value into its inner input on its next animation frame (and this
    // frame callback is queued after that one): select then, so typing replaces the whole name.
    const frame = requestAnimationFrame(() => {
      el?.control?.focus();
      el?.control?.select();
    });
    return () => cancelAnimationFrame(frame);
  }, [editing]);

  const shown = pending ?? name;

  const start = () => {
    finished.current = false;
    setDraft(shown);
    setProblem(null);
    setEditing(true);
  };

  const end = () => {
    finished.current = true;
    setEditing(false);
    setProblem(null);
    onEditEnd();
  };

  const save = (): boolean => {
    const trouble = nameProblem(draft);
    if (trouble) {
      setProblem(trouble);
      return false;
    }
    const next = draft.trim();
    if (next !== shown) {
      setPending(next);
      post({ type: "renameAgent", id, name: next });
    }
    end();
    return true;
  };

  const onKeyDown = (e: KeyboardEvent) => {
    e.stopPropagation();
    if (e.key === "Enter") {
      e.preventDefault();
      save();
    } else if (e.key === "Escape") {
      e.preventDefault();
      end();
    }
  };

  // Leaving the field keeps a valid name (as VS Code's own rename boxes do) and drops an invalid one.
  const onBlur = () => {
    if (finished.current) return;
    if (nameProblem(draft)) end();
    else save();
  };

  if (editing) {
    return (
      <div className="agent-name-edit" onClick={stop} onDoubleClick={stop}>
        <VSCodeTextField
          // The wrapper forwards the ref to the <vscode-text-field> element, though its typings
          // say it is the React component.
          ref={(element: unknown) => {
            field.current = element as TextFieldElement | null;
          }}
          data-testid="rename-input"
          aria-label="Agent name"
          aria-invalid={problem ? "true" : undefined}
          aria-describedby={problem ? problemId : undefined}
          maxlength={MAX_NAME_LENGTH}
          value={draft}
          onInput={(e: { target: EventTarget | null }) => {
            setDraft((e.target as TextFieldElement).value);
            setProblem(null);
          }}
          onKeyDown={onKeyDown}
          onBlur={onBlur}
        />
        {problem && (
          <div className="name-problem" id={problemId} role="alert" data-testid="rename-problem">
            {problem}
          </div>
        )}
      </div>
    );
  }

  return (
    <div className="agent-name-row">
      <span
        className="agent-name"
        data-testid="agent-name"
        title="Double-click to rename"
        onDoubleClick={(e) => {
          e.stopPropagation();
          start();
        }}
      >
        {shown}
      </span>
      <VSCodeButton
        className="card-button"
        appearance="icon"
        data-testid="rename-agent"
        aria-label={`Rename ${shown}`}
        title="Rename"
        onClick={(e: SyntheticEvent) => {
          e.stopPropagation();
          start();
        }}
        onKeyDown={stop}
      >
        <Codicon name="edit" />
      </VSCodeButton>
    </div>
  );
}

/** A decorative codicon: screen readers skip it, the text beside it carries the meaning. */
export function Codicon({ name, className }: { name: string; className?: string }) {
  return <span className={`codicon codicon-${name}${className ? ` ${className}` : ""}`} aria-hidden="true" />;
}

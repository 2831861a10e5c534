/** Renders an agent's replies as Markdown that cannot run anything (no raw HTML, checked links). */
import MarkdownIt from "markdown-it";

/**
 * Markdown as HTML that cannot run anything: raw HTML in the text is escaped (html: false), links
 * are checked by markdown-it's validateLink (no javascript:, vbscript:, file: or data: other than
 * images), and the page's Content-Security-Policy allows no inline script anyway.
 */
const md = new MarkdownIt({ html: false, linkify: false, breaks: false });

export function renderMarkdown(text: string): string {
  return md.render(text);
}

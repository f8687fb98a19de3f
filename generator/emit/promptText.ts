/**
 * The placeholder rule for static prompt messages, shared by the contract
 * tests (which compute the expected text) and documented for the runtime:
 * `{{ name }}` is replaced in one pass by the argument's literal value; a
 * value containing `{{x}}` is never expanded again; an absent argument
 * becomes the empty string.
 */
export const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Renders a message template with string argument values. */
export function renderTemplate(text: string, args: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (_, name: string) => args[name] ?? '');
}

/** The contract's bound of a suggested metric prompt ("Metric prompt rewrite: max 5,000 chars"). */
export const MAX_METRIC_PROMPT_CHARS = 5000;

/** The model's answer as a prompt: surrounding quotes and a Markdown fence dropped, trimmed. */
export function cleanSuggestedPrompt(text: string): string {
  return text
    .trim()
    .replace(/^```[a-z]*\s*/i, '')
    .replace(/\s*```$/, '')
    .replace(/^"([\s\S]*)"$/, '$1')
    .trim();
}

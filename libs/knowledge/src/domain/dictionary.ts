/** pronunciation: how to say a term (`pronunciation` required); key_terms: terms to recognise and use exactly. */
export const DICTIONARY_KINDS = ['pronunciation', 'key_terms'] as const;
export type DictionaryKind = (typeof DICTIONARY_KINDS)[number];

export interface DictionaryEntry {
  term: string;
  pronunciation?: string;
}

export interface DictionaryProps {
  id: string;
  workspaceId: string;
  name: string;
  kind: DictionaryKind;
  entries: DictionaryEntry[];
  createdAt: Date;
  updatedAt: Date;
}

/** The lines an agent's prompt gets from a dictionary. */
export function dictionaryPromptLines(dictionary: DictionaryProps): string[] {
  return dictionary.entries.map((e) => (dictionary.kind === 'pronunciation' && e.pronunciation ? `${e.term}: say "${e.pronunciation}"` : e.term));
}

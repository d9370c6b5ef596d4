import { transliterate } from 'transliteration';

/**
 * The callee's name as the agent is given it (`contact_name`, decisions.md 16.22). With the
 * campaign's `transliterateCalleeNames` on, a name in another script is written in Latin letters
 * (Дмитрий → Dmitriy, 王小明 → Wang Xiao Ming) so a voice tuned for Latin text can say it; the
 * contact keeps the name as uploaded. Names already in Latin script pass through unchanged, accents
 * included (José stays José): only text outside Latin script is transliterated.
 */
export function calleeName(name: string | null, transliterateNames: boolean): string {
  if (!name) return '';
  if (!transliterateNames) return name;
  return name.replace(NON_LATIN_RUN, (run) => transliterate(run)).replace(/\s+/g, ' ').trim();
}

/** Runs of letters (and the marks, spaces and punctuation between them) of any script but Latin. */
const NON_LATIN_RUN = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}](?:[^\p{Script=Latin}]*[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}])?/gu;

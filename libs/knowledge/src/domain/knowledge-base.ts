export interface KnowledgeBaseProps {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A passage found by a retrieval query, best first. */
export interface RetrievedPassage {
  documentId: string;
  documentName: string;
  seq: number;
  content: string;
  score: number;
}

/** Reciprocal-rank fusion's constant (Cormack et al.: 60). */
const RRF_K = 60;

/**
 * One ranking from several (full-text, embeddings): each passage scores Σ 1/(60 + rank) over the
 * rankings it is in; best first, at most `limit` (decisions.md 39.5).
 */
export function fuseRankings(rankings: ReadonlyArray<readonly RetrievedPassage[]>, limit: number): RetrievedPassage[] {
  const fused = new Map<string, RetrievedPassage>();
  for (const ranking of rankings) {
    ranking.forEach((p, rank) => {
      const key = `${p.documentId}:${p.seq}`;
      const score = 1 / (RRF_K + rank + 1);
      const seen = fused.get(key);
      fused.set(key, seen ? { ...seen, score: seen.score + score } : { ...p, score });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.documentId.localeCompare(b.documentId) || a.seq - b.seq).slice(0, limit);
}

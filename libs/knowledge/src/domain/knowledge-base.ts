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

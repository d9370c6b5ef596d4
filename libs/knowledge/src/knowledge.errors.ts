import { defineErrors } from '@outreach/core';

/**
 * The error codes the knowledge module owns: documents, knowledge bases, chatbots and dictionaries
 * (moved out of libs/core/src/pending.errors.ts when the module was built, issue 18 items 4–6;
 * decisions.md 39). `session_not_found` stays with the assist module, which raises it for campaign
 * chat sessions; chatbot sessions raise the same code.
 */
export const KNOWLEDGE_ERRORS = defineErrors('knowledge', {
  document_not_found: { status: 404, message: 'Document not found' },
  no_external_id: { status: 400, message: 'Document upload not completed' },
  document_not_provisioned: { status: 400, message: 'Upload not confirmed' },
  document_too_large: { status: 413, message: 'KB document over size limit' },
  empty_document: { status: 400, message: 'KB document empty' },
  unsupported_document_type: { status: 415, message: 'KB document type unsupported' },
  document_storage_unavailable: { status: 503, message: 'Storage unavailable' },
  document_storage_failed: { status: 502, message: 'Storing failed' },
  document_ingest_unavailable: { status: 502, message: 'Could not be queued for processing' },
  knowledge_base_not_found: { status: 404, message: 'Knowledge base not found or not owned' },
  knowledge_base_in_use: { status: 409, message: 'Attached to a live chatbot' },
  kb_document_not_found: { status: 404, message: 'KB document not found (docId)' },
  chatbot_not_found: { status: 404, message: 'Chatbot not found' },
  rotation_conflict: { status: 409, message: 'Another key rotation won the race' },
  dictionary_not_found: { status: 404, message: 'Dictionary not found' },
});

declare module '@outreach/core' {
  interface ErrorCodes extends Record<keyof typeof KNOWLEDGE_ERRORS, true> {}
}

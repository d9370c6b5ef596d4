import { Injectable } from '@nestjs/common';
import { PdfTextReader } from '@outreach/assist';
import mammoth from 'mammoth';
import { DocumentTextReader } from '../application/knowledge.ports';
import type { DocumentType } from '../domain/document';

/** PDF through the assist module's unpdf reader, DOCX through mammoth 1.13.0, TXT/MD as strict UTF-8. */
@Injectable()
export class MultiFormatTextReader extends DocumentTextReader {
  constructor(private readonly pdf: PdfTextReader) {
    super();
  }

  async text(type: DocumentType, bytes: Buffer): Promise<string> {
    switch (type) {
      case 'pdf':
        return this.pdf.text(new Uint8Array(bytes));
      case 'docx':
        return (await mammoth.extractRawText({ buffer: bytes })).value;
      case 'txt':
      case 'md':
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
    }
  }
}

import { Injectable } from '@nestjs/common';
import { extractText, getDocumentProxy } from 'unpdf';
import { PdfTextReader } from '../../application/briefs/draft-campaign-from-brief.use-case';

/** PDF text through unpdf (PDF.js, serverless build): every page, pages separated by a blank line. */
@Injectable()
export class UnpdfTextReader extends PdfTextReader {
  async text(bytes: Uint8Array): Promise<string> {
    // verbosity 0: PDF.js would print its repair warnings for damaged files to the console.
    const document = await getDocumentProxy(bytes, { verbosity: 0 });
    try {
      const { text } = await extractText(document, { mergePages: false });
      return text.join('\n\n');
    } finally {
      await document.destroy();
    }
  }
}

import { InMemoryAgentCatalogue } from '../testing';
import { VoiceLibrary } from './voice-library';

/* VoiceLibrary: the catalogue's voices and sounds, and voice previews. */

describe('VoiceLibrary', () => {
  let catalogue: InMemoryAgentCatalogue;
  let library: VoiceLibrary;

  beforeEach(() => {
    catalogue = new InMemoryAgentCatalogue();
    library = new VoiceLibrary(catalogue);
  });

  it("lists the catalogue's voices and background sounds", () => {
    expect(library.voices().map((v) => v.id)).toEqual(['aria', 'sam']);
    expect(library.backgroundAudio()).toEqual([{ id: 'office', name: 'Office', description: 'Office murmur', defaultVolume: 0.3 }]);
  });

  it("returns a voice's preview sample", async () => {
    await expect(library.preview('aria')).resolves.toEqual({ contentType: 'audio/wav', audio: Buffer.from('RIFF-aria') });
  });

  it('preview_not_supported for a voice without a sample', async () => {
    await expect(library.preview('sam')).rejects.toMatchObject({ code: 'preview_not_supported' });
  });

  it('not_found for an unknown voice, even if a sample were stored under its id', async () => {
    catalogue.previews.set('ghost', { contentType: 'audio/wav', audio: Buffer.from('x') });
    await expect(library.preview('ghost')).rejects.toMatchObject({ code: 'not_found' });
  });
});

import { Injectable } from '@nestjs/common';
import { AppError } from '@outreach/core';
import { AgentCatalogue, BackgroundAudioEntry, VoiceEntry } from './agent.ports';

/** GET /voices, GET /voices/{id}/preview, GET /background-audio. */
@Injectable()
export class VoiceLibrary {
  constructor(private readonly catalogue: AgentCatalogue) {}

  voices(): VoiceEntry[] {
    return this.catalogue.voices();
  }

  backgroundAudio(): BackgroundAudioEntry[] {
    return this.catalogue.backgroundAudio();
  }

  async preview(voiceId: string): Promise<{ contentType: string; audio: Buffer }> {
    if (!this.catalogue.voice(voiceId)) throw new AppError('not_found', { message: `no voice ${voiceId}` });
    const preview = await this.catalogue.preview(voiceId);
    if (!preview) throw new AppError('preview_not_supported', { message: `voice ${voiceId} has no preview` });
    return preview;
  }
}

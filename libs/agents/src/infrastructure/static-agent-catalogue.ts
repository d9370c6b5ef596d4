import { Injectable } from '@nestjs/common';
import { AgentCatalogue, BackgroundAudioEntry, VoiceEntry } from '../application/agent.ports';

/**
 * The voice and background-audio catalogues of this deployment. Static data: the sandbox provider
 * accepts every voice here; a real provider adapter would list its own. Sandbox previews are a
 * short tone per voice (a real adapter would return the provider's sample).
 */
export const VOICES: readonly VoiceEntry[] = [
  { id: 'aria', name: 'Aria', gender: 'female', language: 'en-US', accent: 'American', provider: 'sandbox', previewAvailable: true },
  { id: 'james', name: 'James', gender: 'male', language: 'en-GB', accent: 'British', provider: 'sandbox', previewAvailable: true },
  { id: 'priya', name: 'Priya', gender: 'female', language: 'en-IN', accent: 'Indian', provider: 'sandbox', previewAvailable: true },
  { id: 'arjun', name: 'Arjun', gender: 'male', language: 'hi-IN', accent: 'Indian', provider: 'sandbox', previewAvailable: true },
  { id: 'sofia', name: 'Sofia', gender: 'female', language: 'es-ES', accent: 'Castilian', provider: 'sandbox', previewAvailable: true },
  { id: 'sam', name: 'Sam', gender: 'neutral', language: 'en-US', accent: 'American', provider: 'sandbox', previewAvailable: false },
  { id: 'custom-clone', name: 'Custom clone', gender: 'neutral', language: 'en-US', accent: 'Cloned', provider: 'sandbox', previewAvailable: false },
];

export const BACKGROUND_AUDIO: readonly BackgroundAudioEntry[] = [
  { id: 'office', name: 'Office', description: 'Quiet open-plan office murmur', defaultVolume: 0.3 },
  { id: 'call-center', name: 'Call centre', description: 'Busy contact-centre floor', defaultVolume: 0.25 },
  { id: 'cafe', name: 'Café', description: 'Coffee shop ambience', defaultVolume: 0.2 },
  { id: 'static', name: 'Line static', description: 'Faint telephone-line hiss', defaultVolume: 0.1 },
];

@Injectable()
export class StaticAgentCatalogue extends AgentCatalogue {
  voices(): VoiceEntry[] {
    return VOICES.map((v) => ({ ...v }));
  }

  voice(id: string): VoiceEntry | null {
    const found = VOICES.find((v) => v.id === id);
    return found ? { ...found } : null;
  }

  async preview(id: string): Promise<{ contentType: string; audio: Buffer } | null> {
    const index = VOICES.findIndex((v) => v.id === id);
    if (index < 0 || !VOICES[index].previewAvailable) return null;
    return { contentType: 'audio/wav', audio: toneWav(220 + 55 * index) };
  }

  backgroundAudio(): BackgroundAudioEntry[] {
    return BACKGROUND_AUDIO.map((a) => ({ ...a }));
  }

  backgroundAudioById(id: string): BackgroundAudioEntry | null {
    const found = BACKGROUND_AUDIO.find((a) => a.id === id);
    return found ? { ...found } : null;
  }
}

/** Half a second of a sine tone as 8 kHz mono 16-bit PCM WAV: deterministic sandbox audio. */
function toneWav(frequency: number): Buffer {
  const rate = 8000;
  const samples = rate / 2;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * frequency * i) / rate) * 8000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

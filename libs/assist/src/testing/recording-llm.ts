import { Llm, LlmMessage, LlmOptions } from '../application/llm/llm.port';
import { SandboxLlm } from '../infrastructure/llm/sandbox-llm';

/**
 * An Llm that remembers every request and hands it to another one (the sandbox by default, or
 * whatever a test installs in `current`): tests assert what the model was told.
 */
export class RecordingLlm extends Llm {
  readonly seen: Array<{ messages: LlmMessage[]; options: LlmOptions; streamed: boolean }> = [];
  current: Llm = new SandboxLlm();

  complete(messages: LlmMessage[], options: LlmOptions): Promise<string> {
    this.seen.push({ messages, options, streamed: false });
    return this.current.complete(messages, options);
  }

  stream(messages: LlmMessage[], options: LlmOptions): AsyncIterable<string> {
    this.seen.push({ messages, options, streamed: true });
    return this.current.stream(messages, options);
  }

  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]> {
    return this.current.embed(texts, options);
  }

  last(purpose?: LlmOptions['purpose']): { messages: LlmMessage[]; options: LlmOptions; streamed: boolean } | undefined {
    return [...this.seen].reverse().find((s) => purpose === undefined || s.options.purpose === purpose);
  }
}

/** An Llm answering fixed text (both ways), for use-case specs. */
export class ScriptedLlm extends Llm {
  constructor(public answer: string | Error) {
    super();
  }

  async complete(): Promise<string> {
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }

  async *stream(): AsyncIterable<string> {
    if (this.answer instanceof Error) throw this.answer;
    for (const token of this.answer.match(/\s+|\S+\s*/g) ?? []) yield token;
  }

  async embed(texts: string[]): Promise<number[][]> {
    if (this.answer instanceof Error) throw this.answer;
    return texts.map(() => [1]);
  }
}

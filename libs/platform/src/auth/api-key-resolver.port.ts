import type { ResolvedApiKey } from './principal';

/**
 * Port: finds what a presented API key stands for. Implemented by the workspaces module (which
 * owns keys, members and workspaces); the platform guard decides what the answer means.
 */
export abstract class ApiKeyResolver {
  /** The key row (with its workspace and member) whose SHA-256 equals `hash`, or null. */
  abstract resolveByHash(hash: Buffer): Promise<ResolvedApiKey | null>;
  /** Records use, at most about once a minute per key; never fails the request. */
  abstract touch(keyId: string): void;
}

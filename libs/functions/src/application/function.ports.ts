import { CustomFunction } from '../domain/custom-function';

export abstract class FunctionRepository {
  /** Throws AppError name_taken when the workspace has a function of that name (any case). */
  abstract insert(fn: CustomFunction): Promise<void>;
  /** Writes header values only when the aggregate carries new ones. Throws name_taken like insert. */
  abstract update(fn: CustomFunction): Promise<void>;
  /** False when there was no such function in the workspace. */
  abstract delete(workspaceId: string, id: string): Promise<boolean>;
  abstract findById(workspaceId: string, id: string, options?: { lock?: boolean }): Promise<CustomFunction | null>;
  abstract listByWorkspace(workspaceId: string): Promise<CustomFunction[]>;
  abstract existingIds(workspaceId: string, ids: string[]): Promise<Set<string>>;
  /** Decrypted header values, for the service making the call; never for responses. */
  abstract revealHeaders(workspaceId: string, id: string): Promise<Record<string, string> | null>;
}

/** Authenticated encryption of secrets at rest; `context` binds a ciphertext to its row. */
export abstract class SecretCipher {
  abstract encrypt(plaintext: string, context: string): string;
  abstract decrypt(sealed: string, context: string): string;
}

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Loads every module's `<module>.errors.ts` (and the kernel's pending codes), as the apps do by
 * importing every module: tests that construct an AppError of another module's code find it
 * registered, and the catalogue check sees the whole catalogue. Found by name, so a new module
 * needs no entry here. Returns the files loaded.
 */
export function loadEveryModuleErrors(): string[] {
  const libs = join(__dirname, '../../libs');
  const files: string[] = [];
  for (const lib of readdirSync(libs)) {
    const src = join(libs, lib, 'src');
    if (!existsSync(src)) continue;
    for (const name of readdirSync(src)) if (name.endsWith('.errors.ts')) files.push(join(src, name));
  }
  for (const file of files) require(file);
  return files;
}

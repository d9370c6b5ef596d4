import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Loads what every module declares about itself in its folder's root — `<module>.errors.ts` (its
 * error codes) and `<module>.config.ts` (its configuration keys) — as the apps do by importing
 * every module. Tests that throw another module's code or read another module's key find it
 * registered, and the catalogue check sees the whole catalogue. Found by name, so a new module
 * needs no entry here. Returns the files loaded.
 */
export function loadEveryModulePart(part: 'errors' | 'config'): string[] {
  const libs = join(__dirname, '../../libs');
  const files: string[] = [];
  for (const lib of readdirSync(libs)) {
    const src = join(libs, lib, 'src');
    if (!existsSync(src)) continue;
    for (const name of readdirSync(src)) if (name.endsWith(`.${part}.ts`)) files.push(join(src, name));
  }
  for (const file of files) require(file);
  return files;
}

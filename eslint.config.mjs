// ESLint 9 flat config: the recommended JavaScript and TypeScript rules, without type-aware
// linting (tsc --noEmit already checks types; this stays fast on 2 cores).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'var/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.jest },
    },
    rules: {
      // Unused is an error, unless the name says it is deliberate (_hash, _req…).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Nest and TypeORM speak in class references (migration lists, metatypes): `Function` is fine.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // `declare global` / `declare module` augmentations (express Request) are fine.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      // A module adds its error codes and configuration keys to the kernel's interfaces with
      // `interface ErrorCodes extends Record<…> {}` (declaration merging).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // A test may need `as any` to reach into a framework; keep it visible, not fatal.
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-console': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': 'error',
    },
  },
  {
    // Tests may load modules lazily or reach into a framework's internals (jest.isolateModules,
    // require('class-transformer/cjs/storage')).
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // Plain Node scripts and configs (CommonJS or ESM).
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: {
      ecmaVersion: 2023,
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
);

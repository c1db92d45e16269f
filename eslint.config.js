// ESLint for the engine, its tests, scripts, benchmarks and the trend site, type-aware
// (typescript-eslint reads tsconfig.json). A small rule set, each rule for a bug tsc lets through:
// - no-floating-promises: a promise nobody awaits loses its rejection (a failed git push or
//   upload that the run then reports as fine) and races the process exit;
// - no-misused-promises: an async function where a plain callback is expected (forEach, an event
//   handler, a condition) is the same unobserved promise, or an always-true check;
// - no-unused-vars: a computed value nobody reads is usually a forgotten step (tsc's
//   noUnusedLocals misses unused parameters and caught errors);
// - no-explicit-any: `any` switches type checking off for everything it touches; inputs crossing
//   a boundary are `unknown` and parsed with zod instead.
// runners/ is linted by its own tools (runners/js is type-checked there); dist/ is generated.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'pages/dist/**', 'runners/**', 'node_modules/**', '.bee-bench/**', 'out/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Tests may use `any` where they hand deliberately malformed data to a parser or reach into a
    // mocked library's loose types: the point there is to get past the type checker, and the
    // code under test still sees `unknown`.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);

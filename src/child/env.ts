// The environment of every child process the engine starts (client and runner builds, runners,
// bee-js `npm ci`, git, tool probes). Builds and runners execute code we do not control (a crate's
// build.rs, an npm install script, the PR's client), so they must not see the action's
// credentials: the action's inputs (INPUT_*, which include the github-token), the runtime and
// OIDC tokens, the cache and results service URLs, GITHUB_TOKEN / GH_TOKEN, and any variable whose
// value contains a registered secret or one of those tokens (a workflow may copy the token into
// an env: of its own). Nor may they steer the job: the runner's file commands (GITHUB_ENV,
// GITHUB_PATH, GITHUB_OUTPUT, GITHUB_STATE, GITHUB_STEP_SUMMARY) would let a build script set
// variables, outputs or PATH for later steps, and GIT_CONFIG_* / GIT_ASKPASS can carry a remote's
// credentials (an extraheader) to every git the child starts. Everything else (PATH, HOME,
// toolchain settings, GITHUB_SHA...) passes.

const DROPPED_PREFIXES = ['INPUT_', 'ACTIONS_RUNTIME_', 'ACTIONS_ID_TOKEN_REQUEST_'] as const;
const DROPPED_NAMES = new Set([
  'ACTIONS_CACHE_URL',
  'ACTIONS_RESULTS_URL',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  // File commands: whoever can write these files steers the steps after this one.
  'GITHUB_ENV',
  'GITHUB_PATH',
  'GITHUB_OUTPUT',
  'GITHUB_STATE',
  'GITHUB_STEP_SUMMARY',
  // Git configuration and credentials handed down through the environment.
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
]);
/** GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n>: the entries GIT_CONFIG_COUNT numbers. */
const GIT_CONFIG_ENTRY = /^GIT_CONFIG_(KEY|VALUE)_\d+$/;
/** Variables whose values are themselves credentials: any other variable holding them is dropped too. */
const TOKEN_NAMES = [
  'INPUT_GITHUB-TOKEN',
  'INPUT_GITHUB_TOKEN',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
] as const;
/** Shorter values are not treated as secrets (an empty or one-word value would match everything). */
const MIN_SECRET_LENGTH = 8;

const registered = new Set<string>();

/** Marks a value (the github-token input, say) as a secret: no child process sees a variable containing it. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) registered.add(value);
}

const isDroppedName = (name: string) => {
  const upper = name.toUpperCase();
  return DROPPED_NAMES.has(upper) || DROPPED_PREFIXES.some((p) => upper.startsWith(p)) || GIT_CONFIG_ENTRY.test(upper);
};

/**
 * The environment for a child process: `base` (default process.env) plus `extra`, without the
 * credentials above. Pass the result as the `env` option of spawn / execFile.
 */
export function childEnv(extra: Readonly<Record<string, string | undefined>> = {}, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const secrets = [...registered];
  for (const name of TOKEN_NAMES) {
    const v = base[name];
    if (v && v.length >= MIN_SECRET_LENGTH) secrets.push(v);
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...base, ...extra })) {
    if (value === undefined || isDroppedName(name)) continue;
    if (secrets.some((s) => value.includes(s))) continue;
    out[name] = value;
  }
  return out;
}

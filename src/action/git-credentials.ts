// Credentials in the git configuration a client build would see. actions/checkout leaves the job
// token as an http extraheader unless told `persist-credentials: false`, and any build script can
// read it with `git config --list`; a credential helper or a URL with a password in it is the same
// gift. The action refuses to build such a checkout (every worktree shares its config) and says how
// to fix the workflow; it never edits the user's configuration itself.
import { git } from './checkout.js';

/** Config keys that hand out credentials (lower-cased, as git prints them). */
const CREDENTIAL_KEY = /^(http\..*extraheader|credential\..*|url\..*\.(insteadof|pushinsteadof))$/;
/** A URL with a user and password in it: scheme://user:secret@host. */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s@:]+:[^/\s@]+@/i;

export interface CredentialEntry {
  /** Where git read it from (file:<path>, command line ...), without the value. */
  origin: string;
  key: string;
}

/**
 * Every entry of the repository's and the user's configuration in `dir` (includes followed) that
 * carries a credential. The machine's system configuration is the runner image's, not the job's.
 */
export async function gitCredentials(dir: string): Promise<CredentialEntry[]> {
  const out = await git(dir, ['config', '--show-scope', '--show-origin', '--includes', '--null', '--list']).catch(() => '');
  const found: CredentialEntry[] = [];
  // --show-scope --show-origin --null: "<scope>\0<origin>\0<key>\n<value>\0" per entry.
  const parts = out.split('\0');
  for (let i = 0; i + 2 < parts.length; i += 3) {
    const [scope, origin, entry] = [parts[i]!, parts[i + 1]!, parts[i + 2]!];
    if (scope === 'system') continue;
    const nl = entry.indexOf('\n');
    const key = (nl < 0 ? entry : entry.slice(0, nl)).toLowerCase();
    const value = nl < 0 ? '' : entry.slice(nl + 1);
    if (CREDENTIAL_KEY.test(key) && !(key.startsWith('credential.') && value === '')) found.push({ origin, key });
    else if (URL_WITH_PASSWORD.test(value)) found.push({ origin, key });
  }
  return found;
}

/** Throws naming each credential entry and the fix, when the checkout's git config holds one. */
export async function refuseGitCredentials(dir: string, what: string): Promise<void> {
  const found = await gitCredentials(dir);
  if (found.length === 0) return;
  const list = found.map((f) => `${f.key} (${f.origin})`).join(', ');
  throw new Error(
    `${what}: its git configuration holds credentials that the client's build and runner would read: ${list}. Fix: check out with persist-credentials: false (actions/checkout), and give no credential helper to jobs that build client code`,
  );
}

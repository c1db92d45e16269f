// Case-id globs of --case and the BEE_BENCH_* hooks: `*` matches any run of characters (dots
// included), `?` one character, matched against the whole id.

export function globToRegExp(glob) {
  const body = [...glob]
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

export const globMatches = (glob, id) => globToRegExp(glob).test(id);

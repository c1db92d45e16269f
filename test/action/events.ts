// Event payloads shaped like the ones GitHub delivers (webhook payloads for pull_request, push,
// workflow_dispatch and workflow_run), trimmed to realistic fields and filled with this test's repos.
const API = 'https://api.github.com';
const HTML = 'https://github.com';

function user(login: string, id: number, type: 'User' | 'Bot' = 'User') {
  return {
    login,
    id,
    node_id: `MDQ6VXNlcj${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: `${API}/users/${login}`,
    html_url: `${HTML}/${login}`,
    type,
    site_admin: false,
  };
}

export function repository(fullName: string, id = 101) {
  const [owner] = fullName.split('/');
  return {
    id,
    node_id: `R_kgDO${id}`,
    name: fullName.split('/')[1],
    full_name: fullName,
    private: false,
    owner: user(owner!, id + 1000),
    html_url: `${HTML}/${fullName}`,
    description: 'Rust client for the Swarm Bee API',
    fork: false,
    url: `${API}/repos/${fullName}`,
    clone_url: `${HTML}/${fullName}.git`,
    default_branch: 'main',
    visibility: 'public',
  };
}

export interface PrSpec {
  repo: string;
  number: number;
  base: { ref: string; sha: string };
  head: { ref: string; sha: string; repo?: string };
  title?: string;
  action?: 'opened' | 'synchronize' | 'reopened';
}

export function pullRequestEvent(p: PrSpec) {
  const headRepo = p.head.repo ?? p.repo;
  const author = user(headRepo.split('/')[0]!, 583231);
  return {
    action: p.action ?? 'opened',
    number: p.number,
    pull_request: {
      url: `${API}/repos/${p.repo}/pulls/${p.number}`,
      id: 1_900_000_000 + p.number,
      node_id: `PR_kwDO${p.number}`,
      html_url: `${HTML}/${p.repo}/pull/${p.number}`,
      number: p.number,
      state: 'open',
      locked: false,
      title: p.title ?? 'Speed up chunk hashing',
      user: author,
      body: 'Touches the BMT code.',
      created_at: '2026-11-20T10:00:00Z',
      updated_at: '2026-11-20T10:05:00Z',
      draft: false,
      head: {
        label: `${headRepo.split('/')[0]}:${p.head.ref}`,
        ref: p.head.ref,
        sha: p.head.sha,
        user: author,
        repo: { ...repository(headRepo, 202), fork: headRepo !== p.repo },
      },
      base: {
        label: `${p.repo.split('/')[0]}:${p.base.ref}`,
        ref: p.base.ref,
        sha: p.base.sha,
        user: user(p.repo.split('/')[0]!, 1101),
        repo: repository(p.repo),
      },
      author_association: headRepo === p.repo ? 'MEMBER' : 'CONTRIBUTOR',
      merged: false,
      mergeable_state: 'unknown',
      commits: 1,
    },
    repository: repository(p.repo),
    sender: author,
  };
}

export function pushEvent(repo: string, ref: string, before: string, after: string) {
  return {
    ref,
    before,
    after,
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: `${HTML}/${repo}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
    commits: [
      {
        id: after,
        tree_id: after,
        distinct: true,
        message: 'Update README',
        timestamp: '2026-11-20T10:00:00Z',
        url: `${HTML}/${repo}/commit/${after}`,
        author: { name: 'Octo Cat', email: 'octocat@example.com', username: 'octocat' },
        committer: { name: 'Octo Cat', email: 'octocat@example.com', username: 'octocat' },
        added: [],
        removed: [],
        modified: ['README.md'],
      },
    ],
    head_commit: { id: after, message: 'Update README', timestamp: '2026-11-20T10:00:00Z' },
    repository: repository(repo),
    pusher: { name: 'octocat', email: 'octocat@example.com' },
    sender: user('octocat', 1),
  };
}

export function workflowDispatchEvent(repo: string, ref: string, inputs: Record<string, string>) {
  return { inputs, ref, repository: repository(repo), sender: user('octocat', 1), workflow: '.github/workflows/bench.yml' };
}

export function workflowRunEvent(
  repo: string,
  run: { id: number; name: string; event: string; headSha: string; headBranch: string; headRepo: string; prs?: Array<{ number: number; headSha: string }> },
) {
  return {
    action: 'completed',
    workflow_run: {
      id: run.id,
      name: run.name,
      node_id: `WFR_${run.id}`,
      head_branch: run.headBranch,
      head_sha: run.headSha,
      path: '.github/workflows/bench.yml',
      run_number: 17,
      event: run.event,
      status: 'completed',
      conclusion: 'success',
      workflow_id: 77,
      url: `${API}/repos/${repo}/actions/runs/${run.id}`,
      html_url: `${HTML}/${repo}/actions/runs/${run.id}`,
      // GitHub leaves pull_requests empty for runs of fork PRs.
      pull_requests: (run.prs ?? []).map((p) => ({
        number: p.number,
        id: p.number,
        url: `${API}/repos/${repo}/pulls/${p.number}`,
        head: { ref: run.headBranch, sha: p.headSha, repo: { id: 101, url: `${API}/repos/${repo}`, name: repo.split('/')[1] } },
        base: { ref: 'main', sha: p.headSha, repo: { id: 101, url: `${API}/repos/${repo}`, name: repo.split('/')[1] } },
      })),
      created_at: '2026-11-20T10:00:00Z',
      updated_at: '2026-11-20T10:20:00Z',
      run_attempt: 1,
      head_repository: repository(run.headRepo, 202),
      repository: repository(repo),
    },
    workflow: { id: 77, name: run.name, path: '.github/workflows/bench.yml', state: 'active' },
    repository: repository(repo),
    sender: user('octocat', 1),
  };
}

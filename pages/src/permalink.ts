// The view's state lives in the URL hash, so any view can be bookmarked or shared and a reload
// restores it: #view=case&case=<id>&branch=<name>&log=1&from=<ISO>&to=<ISO>&metric=<unit>&figure=<time|count>.
// URLSearchParams does all encoding; nothing here builds a URL from raw strings.

export type View = 'overview' | 'case';

export interface ViewState {
  view: View;
  /** Case id (case view only). */
  case?: string;
  branch?: string;
  /** Logarithmic y axis (case view). */
  log: boolean;
  /** A metric unit the case view charts instead of time, e.g. "B/op" (case view). */
  metric?: string;
  /** Time or instruction counts: the overview's and scoreboard's figure, and the case view's when no metric is named (default there: counts where the case has them). */
  figure?: 'time' | 'count';
  /** Zoomed x range, epoch ms (case view). */
  from?: number;
  to?: number;
}

export function parseHash(hash: string): ViewState {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const caseId = q.get('case') ?? undefined;
  const view: View = q.get('view') === 'case' && caseId ? 'case' : 'overview';
  const s: ViewState = { view, log: q.get('log') === '1' };
  if (view === 'case') s.case = caseId;
  const branch = q.get('branch');
  if (branch) s.branch = branch;
  const from = Date.parse(q.get('from') ?? '');
  const to = Date.parse(q.get('to') ?? '');
  const metric = q.get('metric');
  if (view === 'case' && metric) s.metric = metric;
  const figure = q.get('figure');
  if (figure === 'time' || figure === 'count') s.figure = figure;
  if (view === 'case' && Number.isFinite(from) && Number.isFinite(to) && from < to) {
    s.from = from;
    s.to = to;
  }
  return s;
}

export function formatHash(s: ViewState): string {
  const q = new URLSearchParams();
  if (s.view === 'case' && s.case) {
    q.set('view', 'case');
    q.set('case', s.case);
  }
  if (s.branch) q.set('branch', s.branch);
  if (s.figure) q.set('figure', s.figure);
  if (s.view === 'case') {
    if (s.log) q.set('log', '1');
    if (s.metric) q.set('metric', s.metric);
    if (s.from !== undefined && s.to !== undefined) {
      q.set('from', new Date(s.from).toISOString());
      q.set('to', new Date(s.to).toISOString());
    }
  }
  const text = q.toString();
  return text ? `#${text}` : '#';
}

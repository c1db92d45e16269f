// What every view gets from the shell: the loaded index, the resolved state, and a way to move.
import type { HistoryIndex } from '../../src/history/schema.js';
import type { ViewState } from './permalink.js';

export interface ViewContext {
  index: HistoryIndex;
  /** State with the branch resolved to one the index knows. */
  state: ViewState;
  /** Go to another state: a new history entry (re-renders), or replace=true to only record it in the URL. */
  navigate(next: ViewState, opts?: { replace?: boolean }): void;
  /** Announce a short status message to assistive technology. */
  announce(message: string): void;
}

/** What a rendered view leaves behind to tear down (charts, listeners). */
export interface ViewHandle {
  destroy(): void;
}

/** A screen's heading with its actions, and a loading line. */
import type { ReactNode } from 'react';

/** The heading of a screen; the h2 names the screen for screen readers. */
export function ScreenHeader({ title, id, children }: { title: string; id?: string; children?: ReactNode }) {
  return (
    <div className="screen-header">
      <h2 id={id}>{title}</h2>
      <div className="screen-actions">{children}</div>
    </div>
  );
}

/** A polite "loading" line, so slow answers never look like empty lists. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

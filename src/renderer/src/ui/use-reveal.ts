/**
 * A detail that opens below its list (Projects, Groups): once it has loaded, its title is
 * brought into view and focused, else below a long list the click seemed to do nothing.
 */
import { useEffect, useRef, type RefObject } from 'react';

/** The ref for the detail's title (give it tabIndex={-1}); revealed when `loaded` turns true. */
export function useRevealOnLoad(loaded: boolean): RefObject<HTMLHeadingElement | null> {
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!loaded || !title.current) return;
    title.current.scrollIntoView({ block: 'start' });
    title.current.focus({ preventScroll: true });
  }, [loaded]);
  return title;
}

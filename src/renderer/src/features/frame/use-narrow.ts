/** Whether the window is narrow enough (under 1200 px) that the navigation should fold away. */
import { useEffect, useState } from 'react';

const QUERY = '(max-width: 1199px)';

/** Follows the media query as the window is resized. */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(QUERY).matches);
  useEffect(() => {
    const mq = window.matchMedia(QUERY);
    const on = () => setNarrow(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return narrow;
}

/**
 * The address bar and the app kept in step: Back/Forward and typed addresses reach the store,
 * reload asks first while a screen holds unsaved work, and after every change of screen (or of
 * the thing shown) focus moves to the new content's heading, so keyboard and screen-reader users
 * start there instead of at the top of the page.
 */
import { useEffect, useRef } from 'react';
import { useAppStore } from '../../store';
import { formatHash } from '../../store/route';

/** Moves focus to the element marked `data-route-focus`, else the first heading of main. */
export function focusNewContent(): void {
  const main = document.getElementById('main');
  const target =
    main?.querySelector<HTMLElement>('[data-route-focus]') ?? main?.querySelector<HTMLElement>('h2, h3') ?? main;
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: false });
}

/** Installs the listeners; call once in the signed-in frame. */
export function useRoute(): void {
  const syncFromLocation = useAppStore((s) => s.syncFromLocation);
  const screen = useAppStore((s) => s.screen);
  const params = useAppStore((s) => s.params);
  const key = formatHash(screen, params);
  const first = useRef(true);

  useEffect(() => {
    // An address without a screen (the launch link, a bookmark of the bare page) shows the home
    // screen: name it in the address bar too, without adding a history entry.
    const { screen: shown, params: shownParams } = useAppStore.getState();
    const hash = formatHash(shown, shownParams);
    if (window.location.hash !== hash) window.history.replaceState(window.history.state, '', hash);
    window.addEventListener('hashchange', syncFromLocation);
    window.addEventListener('popstate', syncFromLocation);
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (useAppStore.getState().leaveGuard) e.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      window.removeEventListener('hashchange', syncFromLocation);
      window.removeEventListener('popstate', syncFromLocation);
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [syncFromLocation]);

  useEffect(() => {
    // The first screen after loading keeps the browser's own start (the skip link first).
    if (first.current) {
      first.current = false;
      return;
    }
    // After React painted the new screen.
    const t = setTimeout(focusNewContent, 0);
    return () => clearTimeout(t);
  }, [key]);
}

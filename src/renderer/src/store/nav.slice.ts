/**
 * Which screen is showing, with its parameters (an execution id, a sample id ...), kept in the
 * address bar's hash so that reload, Back and deep links work (see route.ts). A screen holding
 * unsaved work sets a leave guard: leaving then waits for the technician's answer.
 */
import type { StateCreator } from 'zustand';
import { formatHash, parseHash, type Route, type RouteParams, type Screen } from './route';

export { SCREENS, type Screen } from './route';

export interface NavSlice {
  screen: Screen;
  /** Screen parameters, e.g. `{ id: 4 }` for one execution's dashboard. */
  params: RouteParams;
  /** Shows a screen and records it in history (Back returns to the one before). */
  navigate(screen: Screen, params?: RouteParams): void;
  /** Follows the address bar (Back, Forward, a typed or pasted address). */
  syncFromLocation(): void;
  /** What leaving the current screen would lose (e.g. "an unsaved sheet"); null when nothing. */
  leaveGuard: string | null;
  setLeaveGuard(what: string | null): void;
  /** A navigation held back by the leave guard, waiting for the technician's answer. */
  pendingLeave: Route | null;
  answerLeave(leave: boolean): void;
  /** The technician's choice to show (true) or fold (false) the menu; null follows the width. */
  menuChoice: boolean | null;
  setMenuChoice(open: boolean | null): void;
}

const hasWindow = typeof window !== 'undefined';
const initial = hasWindow ? parseHash(window.location.hash) : parseHash('');

export const createNavSlice: StateCreator<NavSlice, [], [], NavSlice> = (set, get) => {
  const show = (route: Route) => {
    const hash = formatHash(route.screen, route.params);
    // Setting the hash adds a history entry; the hashchange that follows finds the state equal.
    if (hasWindow && window.location.hash !== hash) window.location.hash = hash;
    set({ screen: route.screen, params: route.params, pendingLeave: null });
  };
  const leaves = (route: Route) => route.screen !== get().screen;
  return {
    screen: initial.screen,
    params: initial.params,
    leaveGuard: null,
    pendingLeave: null,
    menuChoice: null,
    setMenuChoice: (menuChoice) => set({ menuChoice }),
    setLeaveGuard: (leaveGuard) => set({ leaveGuard }),
    navigate: (screen, params = {}) => {
      const route = { screen, params };
      if (get().leaveGuard && leaves(route)) set({ pendingLeave: route });
      else show(route);
    },
    syncFromLocation: () => {
      if (!hasWindow) return;
      const route = parseHash(window.location.hash);
      const { screen, params, leaveGuard } = get();
      const current = formatHash(screen, params);
      if (formatHash(route.screen, route.params) === current) return;
      if (leaveGuard && leaves(route)) {
        // Back was pressed with unsaved work: put the address back and ask first.
        window.history.pushState(null, '', current);
        set({ pendingLeave: route });
        return;
      }
      set({ screen: route.screen, params: route.params });
    },
    answerLeave: (leave) => {
      const route = get().pendingLeave;
      if (!route) return;
      if (!leave) return set({ pendingLeave: null });
      set({ leaveGuard: null });
      show(route);
    },
  };
};

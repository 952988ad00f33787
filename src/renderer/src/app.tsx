/**
 * The application frame: the connection banner, the header with the service status, then
 * either the first-run screen or the navigation and the current screen.
 */
import { useEffect, type ComponentType } from 'react';
import { describeError } from './service-client/service-error';
import { ServicesProvider, type Services } from './service-client/services-context';
import { useAppStore, type Screen } from './store';
import { ConnectionBanner } from './features/frame/connection-banner';
import { DesktopNotifier } from './features/frame/desktop-notifier';
import { LeaveDialog } from './features/frame/leave-dialog';
import { NavBar } from './features/frame/nav-bar';
import { useNarrow } from './features/frame/use-narrow';
import { useRoute } from './features/frame/use-route';
import { useSheetGuard } from './features/frame/use-sheet-guard';
import { Toasts } from './features/frame/toasts';
import { AnnotationScreen } from './features/annotation/annotation-screen';
import { ExecutionsScreen } from './features/executions/executions-screen';
import { GroupsScreen } from './features/groups/groups-screen';
import { NotificationsScreen } from './features/notifications/notifications-screen';
import { PipelinesScreen } from './features/pipelines/pipelines-screen';
import { ProjectsScreen } from './features/projects/projects-screen';
import { RunsScreen } from './features/runs/runs-screen';
import { SamplesScreen } from './features/samples/samples-screen';
import { AccountScreen } from './features/session/account-screen';
import { FirstRun } from './features/session/first-run';
import { SettingsScreen } from './features/settings/settings-screen';
import { ServiceStatusBadge } from './features/status/service-status-badge';
import { UploadsScreen } from './features/uploads/uploads-screen';
import { WatchersScreen } from './features/watchers/watchers-screen';
import { FLOW_SCREENS, FlowUnavailableScreen } from './features/frame/flow-unavailable';

/** The screens that exist; the navigation lists exactly these. */
const SCREENS: Partial<Record<Screen, ComponentType>> = {
  runs: RunsScreen,
  uploads: UploadsScreen,
  watchers: WatchersScreen,
  annotation: AnnotationScreen,
  samples: SamplesScreen,
  projects: ProjectsScreen,
  groups: GroupsScreen,
  pipelines: PipelinesScreen,
  executions: ExecutionsScreen,
  notifications: NotificationsScreen,
  account: AccountScreen,
  settings: SettingsScreen,
};

function useDesktopState(services: Services) {
  const { api, link } = services;
  useEffect(() => {
    const st = useAppStore.getState();
    const refreshAuth = () =>
      Promise.all([api.auth.status(), api.profiles.list()]).then(
        ([auth, profiles]) => {
          st.setProfiles(profiles);
          st.setAuth(auth);
        },
        (err: unknown) => st.setAuthError(describeError(err).message),
      );
    void api.app.version().then(st.setAppInfo, () => {});
    void api.service.status().then(st.setServiceStatus, () => {});
    void refreshAuth();
    st.setDesktopConnected(link.connected());
    const offs = [
      api.on('service:status-changed', (status) => {
        st.setServiceStatus(status);
        if (status.state === 'running') st.setServiceReachable(true);
      }),
      // The local service is back after a crash: the address and token are asked afresh.
      api.on('service:restarted', (status) => {
        services.tokens.clear();
        st.setServiceStatus(status);
        st.setServiceReachable(true);
      }),
      api.on('auth:changed', (auth) => {
        services.tokens.clear();
        st.setAuth(auth);
      }),
      api.on('profiles:changed', st.setProfiles),
      // After the desktop socket comes back, what we knew may be stale: ask again.
      link.onChange((connected) => {
        if (!connected) return;
        void api.service.status().then(st.setServiceStatus, () => {});
        void refreshAuth();
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [api, link, services.tokens]);
}

/** A restored session may not carry the user yet: ask the core who it is. */
function useSignedInUser(services: Services) {
  const auth = useAppStore((s) => s.auth);
  const setAuth = useAppStore((s) => s.setAuth);
  const missing = auth?.signed_in === true && auth.user === null;
  useEffect(() => {
    if (!missing || !auth) return;
    services.api.auth.me().then(
      (user) => setAuth({ ...auth, user }),
      () => {},
    );
  }, [missing, auth, services.api, setAuth]);
}

/** The menu's state: wide windows show it unless closed, narrow ones (1024 px) hide it until asked. */
function useMenu() {
  const narrow = useNarrow();
  const choice = useAppStore((s) => s.menuChoice);
  const setChoice = useAppStore((s) => s.setMenuChoice);
  const open = choice ?? !narrow;
  return {
    open,
    toggle: () => setChoice(!open),
    // After a choice in a folded menu, fold it again so the screen gets the width.
    chosen: () => narrow && setChoice(null),
  };
}

function MenuToggle() {
  const { open, toggle } = useMenu();
  return (
    <button
      type="button"
      className="btn btn-small menu-toggle"
      aria-expanded={open}
      aria-controls="main-nav"
      data-testid="menu-toggle"
      onClick={toggle}
    >
      {open ? 'Hide menu' : 'Menu'}
    </button>
  );
}

/** The signed-in frame: the collapsible navigation and the screen of the address. */
function SignedInBody({ Current, screens }: { Current: ComponentType; screens: readonly Screen[] }) {
  useRoute();
  useSheetGuard();
  const { open, chosen } = useMenu();
  return (
    <>
      <div className={`app-body${open ? '' : ' nav-collapsed'}`}>
        <DesktopNotifier />
        <NavBar screens={screens} onChosen={chosen} />
        <main className="app-main" id="main" tabIndex={-1}>
          <h1 className="visually-hidden">Laneway</h1>
          <Current />
        </main>
      </div>
      <LeaveDialog />
    </>
  );
}

/** The skip link moves focus without touching the address (the hash holds the route). */
function skipToMain(e: { preventDefault(): void }) {
  e.preventDefault();
  const main = document.getElementById('main') ?? document.querySelector<HTMLElement>('form, [role="main"]');
  main?.focus();
}

/** The root component. */
export function App({ services }: { services: Services }) {
  useDesktopState(services);
  useSignedInUser(services);
  const appInfo = useAppStore((s) => s.appInfo);
  const auth = useAppStore((s) => s.auth);
  const authError = useAppStore((s) => s.authError);
  const screen = useAppStore((s) => s.screen);
  const profiles = useAppStore((s) => s.profiles);
  const activeProfile = profiles?.profiles.find((p) => p.id === profiles.active_id) ?? null;
  // A Flow server: the screens that go through the desktop core, the others explained.
  const flow = activeProfile?.wire === 'flow';
  const screens = flow ? FLOW_SCREENS : (Object.keys(SCREENS) as Screen[]);
  const Known = SCREENS[screen] ?? AccountScreen;
  const Current = flow && !FLOW_SCREENS.includes(screen) ? FlowUnavailableScreen : Known;

  return (
    <ServicesProvider services={services}>
      <div className="app">
        <a className="skip-link" href="#main" onClick={skipToMain}>
          Skip to content
        </a>
        <ConnectionBanner />
        <header className="app-header">
          {auth?.signed_in && <MenuToggle />}
          <span className="brand" aria-hidden="true">
            Laneway
          </span>
          <ServiceStatusBadge />
          {appInfo && (
            <span className="muted" data-testid="app-version">
              v{appInfo.version} · {appInfo.shell === 'browser' ? 'browser mode' : 'desktop'}
            </span>
          )}
          {auth?.signed_in && auth.user && (
            <span className="header-user" data-testid="header-user">
              {auth.user.name || auth.user.username}
              {activeProfile && <span className="muted"> · {activeProfile.name}</span>}
            </span>
          )}
        </header>
        {authError && (
          <p className="notice notice-bad" role="alert">
            Sign-in is not available from the desktop core: {authError}
          </p>
        )}
        {!auth && !authError && (
          <p className="muted app-main" role="status">
            Connecting to Laneway…
          </p>
        )}
        {auth && !auth.signed_in && <FirstRun />}
        {auth?.signed_in && <SignedInBody Current={Current} screens={screens} />}
        <Toasts />
      </div>
    </ServicesProvider>
  );
}

/**
 * What a screen shows while the active profile is a Flow server (docs/flow-client.md): the
 * desktop core speaks Flow's wire for sign-in, uploads, watched folders, launches and
 * downloads, but this screen reads Laneway's own API, or shows a feature Flow does not offer.
 */
import { useAppStore, type Screen } from '../../store';

/** The screens that work with a Flow profile (they go through the desktop core). */
export const FLOW_SCREENS: readonly Screen[] = ['uploads', 'watchers', 'account', 'settings'];

const WHY: Partial<Record<Screen, string>> = {
  annotation: 'Lane annotation and the lanes it makes are a Laneway feature: a Flow server does not offer them.',
  groups: 'Group management is a Laneway feature: a Flow server does not offer it.',
  executions:
    "Running an execution again and MultiQC on demand are Laneway features; follow your Flow executions in Flow's own web app. Launches from watched folders are followed by this app.",
};

/** Renders the explanation for one screen. */
export function FlowUnavailable({ screen }: { screen: Screen }) {
  return (
    <section aria-labelledby="flow-unavailable-title" data-testid="flow-unavailable">
      <h2 id="flow-unavailable-title">Not available with a Flow server</h2>
      <p>
        {WHY[screen] ??
          "This screen reads Laneway's own service API. With a Flow server, use Flow's web app for it; uploads, watched folders (with their pipeline launches) and your account work here."}
      </p>
    </section>
  );
}

/** The current screen's explanation (a stable component for the frame to render). */
export function FlowUnavailableScreen() {
  const screen = useAppStore((s) => s.screen);
  return <FlowUnavailable screen={screen} />;
}

/**
 * What a screen shows while the active profile is a Flow server (docs/flow-client.md): the
 * desktop core speaks Flow's wire for sign-in, uploads, watched folders, samples, projects,
 * pipelines, executions and lanes; the other screens show a feature Flow does not offer.
 */
import { useAppStore, type Screen } from '../../store';

/** The screens that work with a Flow profile (they go through the desktop core). */
export const FLOW_SCREENS: readonly Screen[] = [
  'uploads',
  'watchers',
  'annotation',
  'samples',
  'projects',
  'pipelines',
  'executions',
  'account',
  'settings',
];

const WHY: Partial<Record<Screen, string>> = {
  groups: 'Group management is a Laneway feature: a Flow server does not offer it.',
  notifications: "Laneway's notifications are a Laneway feature: a Flow server does not offer them here.",
  runs: "Watched runs are listed under Watched folders; this screen reads Laneway's own service.",
};

/** Renders the explanation for one screen. */
export function FlowUnavailable({ screen }: { screen: Screen }) {
  return (
    <section aria-labelledby="flow-unavailable-title" data-testid="flow-unavailable">
      <h2 id="flow-unavailable-title">Not available with a Flow server</h2>
      <p>
        {WHY[screen] ?? "This screen reads Laneway's own service API. With a Flow server, use Flow's web app for it."}
      </p>
    </section>
  );
}

/** The current screen's explanation (a stable component for the frame to render). */
export function FlowUnavailableScreen() {
  const screen = useAppStore((s) => s.screen);
  return <FlowUnavailable screen={screen} />;
}

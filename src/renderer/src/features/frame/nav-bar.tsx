/** The side navigation: one button per screen, the current one marked for assistive tech. */
import { useAppStore, type Screen } from '../../store';

const ITEMS: Array<{ screen: Screen; label: string; section: string }> = [
  { screen: 'runs', label: 'Runs', section: 'Sequencing' },
  { screen: 'uploads', label: 'Uploads', section: 'Sequencing' },
  { screen: 'watchers', label: 'Watched folders', section: 'Sequencing' },
  { screen: 'annotation', label: 'Lane annotation', section: 'Sequencing' },
  { screen: 'samples', label: 'Samples & data', section: 'Data' },
  { screen: 'projects', label: 'Projects', section: 'Data' },
  { screen: 'groups', label: 'Groups', section: 'Data' },
  { screen: 'pipelines', label: 'Pipelines', section: 'Analysis' },
  { screen: 'executions', label: 'Executions', section: 'Analysis' },
  { screen: 'notifications', label: 'Notifications', section: 'You' },
  { screen: 'account', label: 'Account', section: 'You' },
];

/** Renders the navigation landmark. */
export function NavBar({ screens }: { screens: readonly Screen[] }) {
  const screen = useAppStore((s) => s.screen);
  const navigate = useAppStore((s) => s.navigate);
  const items = ITEMS.filter((i) => screens.includes(i.screen));
  const sections = [...new Set(items.map((i) => i.section))];
  return (
    <nav className="nav" aria-label="Main">
      {sections.map((section) => (
        <div key={section} className="nav-section">
          <h2 className="nav-heading">{section}</h2>
          <ul>
            {items
              .filter((i) => i.section === section)
              .map((i) => (
                <li key={i.screen}>
                  <button
                    type="button"
                    className="nav-item"
                    aria-current={screen === i.screen ? 'page' : undefined}
                    data-testid={`nav-${i.screen}`}
                    onClick={() => navigate(i.screen)}
                  >
                    {i.label}
                  </button>
                </li>
              ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

/**
 * The side navigation: one link per screen (a real address, so it can be opened, copied and
 * bookmarked), the current one marked for assistive tech. Below 1200 px wide it collapses
 * behind the Menu button so the screen keeps its width; the frame owns that state.
 */
import { useAppStore, type Screen } from '../../store';
import { formatHash } from '../../store/route';

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
  { screen: 'settings', label: 'Settings', section: 'You' },
];

/** Renders the navigation landmark; `onChosen` lets a collapsed menu close after a choice. */
export function NavBar({ screens, onChosen }: { screens: readonly Screen[]; onChosen?: () => void }) {
  const screen = useAppStore((s) => s.screen);
  const navigate = useAppStore((s) => s.navigate);
  const items = ITEMS.filter((i) => screens.includes(i.screen));
  const sections = [...new Set(items.map((i) => i.section))];
  return (
    <nav className="nav" id="main-nav" aria-label="Main">
      {sections.map((section) => (
        <div key={section} className="nav-section">
          <h2 className="nav-heading">{section}</h2>
          <ul>
            {items
              .filter((i) => i.section === section)
              .map((i) => (
                <li key={i.screen}>
                  <a
                    href={formatHash(i.screen)}
                    className="nav-item"
                    aria-current={screen === i.screen ? 'page' : undefined}
                    data-testid={`nav-${i.screen}`}
                    onClick={(e) => {
                      // Ctrl/middle click opens a new tab as a link should; a plain click stays here.
                      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
                      e.preventDefault();
                      navigate(i.screen);
                      onChosen?.();
                    }}
                  >
                    {i.label}
                  </a>
                </li>
              ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

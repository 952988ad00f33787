/** Every problem of the sheet in one list, each with a button that puts the cursor on its cell. */
import type { Issue } from '../../../../shared/annotation';

export interface IssuesPanelProps {
  errors: Issue[];
  warnings: Issue[];
  serviceIssues: Issue[];
  pending: boolean;
  onGo(issue: Issue): void;
}

function IssueList({ issues, level, onGo }: { issues: Issue[]; level: string; onGo(i: Issue): void }) {
  return (
    <ul className="plain-list issue-list">
      {issues.slice(0, 200).map((i, n) => (
        <li key={n} className={`issue-${level}`}>
          <button type="button" className="link-button" onClick={() => onGo(i)}>
            Row {i.row}, {i.column}
          </button>
          <span>{i.message}</span>
        </li>
      ))}
      {issues.length > 200 && <li className="muted">…and {issues.length - 200} more</li>}
    </ul>
  );
}

/** Renders the panel. */
export function IssuesPanel({ errors, warnings, serviceIssues, pending, onGo }: IssuesPanelProps) {
  return (
    <section className="card" aria-labelledby="issues-title" data-testid="sheet-issues">
      <h3 id="issues-title">Checks {pending ? <span className="muted">(checking…)</span> : null}</h3>
      <p role="status" data-testid="issue-counts">
        {errors.length} error{errors.length === 1 ? '' : 's'}, {warnings.length} warning
        {warnings.length === 1 ? '' : 's'}
      </p>
      {serviceIssues.length > 0 && (
        <>
          <h4>Refused by the service</h4>
          <IssueList issues={serviceIssues} level="error" onGo={onGo} />
        </>
      )}
      {errors.length > 0 && (
        <>
          <h4>Errors (the lane cannot be submitted)</h4>
          <IssueList issues={errors} level="error" onGo={onGo} />
        </>
      )}
      {warnings.length > 0 && (
        <>
          <h4>Warnings (submit only if expected)</h4>
          <IssueList issues={warnings} level="warning" onGo={onGo} />
        </>
      )}
    </section>
  );
}

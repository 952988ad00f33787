/** Creates a project from the selected samples, owned by the caller or by one of their groups. */
import { plural } from '../../ui/format';
import { useState } from 'react';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import type { Project } from '../../service-client/types';
import { ErrorNotice } from '../../ui/error-notice';
import { postProjects } from '../../../../shared/service-api/endpoints';
import type { NewProjectBody } from '../../../../shared/service-api/projects';

/**
 * One empty list for "no groups": a selector answering a new `[]` on every call makes React
 * re-render forever (error #185) while a restored session has no user yet.
 */
const NO_GROUPS: never[] = [];

/** The form; clears the selection once the project exists. */
export function CreateProjectForm({ onCreated }: { onCreated(p: Project): void }) {
  const { client } = useServices();
  const selected = useAppStore((s) => s.selectedSampleIds);
  const setSelected = useAppStore((s) => s.setSelectedSamples);
  const groups = useAppStore((s) => s.auth?.user?.groups) ?? NO_GROUPS;
  const pushToast = useAppStore((s) => s.pushToast);
  const [name, setName] = useState('');
  const [owner, setOwner] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const body: NewProjectBody = { name, sample_ids: selected };
      if (owner) body.group_owner = owner;
      const project = await client.call(postProjects, { body });
      setSelected([]);
      setName('');
      pushToast({ tone: 'ok', message: `Project ${project.name} created with ${plural(selected.length, 'sample')}` });
      onCreated(project);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="card inline-form"
      aria-label="Create a project"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label className="field">
        <span>New project name</span>
        <input required value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        <span>Owner</span>
        <select value={owner} onChange={(e) => setOwner(e.target.value)}>
          <option value="">Me</option>
          {groups
            .filter((g) => g.role !== 'invited')
            .map((g) => (
              <option key={g.slug} value={g.slug}>
                Group {g.name}
              </option>
            ))}
        </select>
      </label>
      <button type="submit" className="btn btn-primary" disabled={busy || selected.length === 0}>
        Create project from {selected.length} selected
      </button>
      {selected.length === 0 && <span className="field-help">Select samples in the list first.</span>}
      <ErrorNotice error={error} />
    </form>
  );
}

/**
 * The first screen when nobody is signed in: standalone (the embedded service; create its
 * first account, or sign in) or a lab's remote service (its URL, then sign in).
 */
import { useRef, useState, type FormEvent } from 'react';
import { useAppStore } from '../../store';
import { ErrorNotice } from '../../ui/error-notice';
import { fieldErrorsOf, FieldMessage, reasonFor, useFocusFirstInvalid } from '../../ui/field-errors';
import { useSessionActions } from './use-session-actions';

type Mode = 'standalone' | 'remote';

/** Renders the welcome, mode choice and the matching form. */
export function FirstRun() {
  const auth = useAppStore((s) => s.auth);
  const profiles = useAppStore((s) => s.profiles);
  const active = profiles?.profiles.find((p) => p.id === profiles.active_id) ?? null;
  // Follows the active profile until the technician picks a mode (profiles can change under us).
  const [chosen, setMode] = useState<Mode | null>(null);
  const mode: Mode = chosen ?? (active?.kind === 'remote' ? 'remote' : 'standalone');
  const actions = useSessionActions();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState('');
  const [profileName, setProfileName] = useState('Lab service');
  const [form, setForm] = useState({ username: '', password: '', email: '', name: '' });
  const fieldErrors = fieldErrorsOf(error);
  const root = useRef<HTMLElement>(null);
  useFocusFirstInvalid(root, fieldErrors);

  const run = async (e: FormEvent, action: () => Promise<unknown>) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const field = (key: keyof typeof form, label: string, type = 'text', autoComplete?: string) => {
    const reason = reasonFor(fieldErrors, key);
    return (
      <label className={`field${reason ? ' field-invalid' : ''}`}>
        <span>{label}</span>
        <input
          type={type}
          name={key}
          required={key === 'username' || key === 'password'}
          autoComplete={autoComplete}
          value={form[key]}
          aria-invalid={reason ? true : undefined}
          aria-describedby={reason ? `first-run-${key}-reason` : undefined}
          onChange={(e) => setForm({ ...form, [key]: e.target.value })}
        />
        <FieldMessage id={`first-run-${key}-reason`} message={reason} />
      </label>
    );
  };

  const onRemote = active?.kind === 'remote';
  // The core knows for sure only after asking the service; a local profile nobody ever signed
  // in on is almost certainly a fresh install, so offer to create the first account.
  const setupLikely = auth?.needs_setup === true || (auth?.needs_setup === null && !active?.username);
  const [wantSetup, setWantSetup] = useState<boolean | null>(null);
  const needsSetup = !onRemote && auth?.needs_setup !== false && (wantSetup ?? setupLikely);
  return (
    <main className="first-run" data-testid="first-run" ref={root}>
      <h1 className="brand">Welcome to Laneway</h1>
      <p className="muted">Choose where your data lives. You can add more services later and switch between them.</p>
      <fieldset className="mode-choice">
        <legend>Service</legend>
        <label>
          <input type="radio" name="mode" checked={mode === 'standalone'} onChange={() => setMode('standalone')} />
          This computer (standalone: the built-in service, works offline)
        </label>
        <label>
          <input type="radio" name="mode" checked={mode === 'remote'} onChange={() => setMode('remote')} />A lab service
          on the network
        </label>
      </fieldset>

      {mode === 'standalone' && onRemote && (
        <button
          type="button"
          className="btn"
          onClick={() => {
            const local = profiles?.profiles.find((p) => p.kind === 'embedded');
            if (local) void actions.switchProfile(local.id).catch(setError);
          }}
        >
          Use this computer's service
        </button>
      )}
      {mode === 'remote' && !onRemote && (
        <form className="card" onSubmit={(e) => run(e, () => actions.addRemote(profileName, url))}>
          <h2>Connect to a lab service</h2>
          <label className="field">
            <span>Service address</span>
            <input
              type="url"
              required
              placeholder="https://analysis.lab.example"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          </label>
          <label className="field">
            <span>Name for this service</span>
            <input required value={profileName} onChange={(e) => setProfileName(e.target.value)} />
          </label>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Connect
          </button>
        </form>
      )}

      {((mode === 'standalone' && !onRemote) || (mode === 'remote' && onRemote)) &&
        (needsSetup ? (
          <form className="card" onSubmit={(e) => run(e, () => actions.setup(form))} data-testid="setup-form">
            <h2>Create the first account</h2>
            <p className="muted">This account administers the local service and may run pipelines.</p>
            {field('username', 'Username', 'text', 'username')}
            {field('name', 'Full name', 'text', 'name')}
            {field('email', 'E-mail', 'email', 'email')}
            {field('password', 'Password (at least 8 characters)', 'password', 'new-password')}
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Create account and sign in
            </button>
            <button type="button" className="link-button" onClick={() => setWantSetup(false)}>
              An account exists already: sign in instead
            </button>
          </form>
        ) : (
          <form
            className="card"
            onSubmit={(e) => run(e, () => actions.login(form.username, form.password))}
            data-testid="login-form"
          >
            <h2>Sign in{active ? ` to ${active.name}` : ''}</h2>
            {active?.url && <p className="muted">{active.url}</p>}
            {field('username', 'Username', 'text', 'username')}
            {field('password', 'Password', 'password', 'current-password')}
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Sign in
            </button>
            {!onRemote && auth?.needs_setup !== false && (
              <button type="button" className="link-button" onClick={() => setWantSetup(true)}>
                First time on this computer? Create the first account
              </button>
            )}
          </form>
        ))}
      <ErrorNotice error={error} />
    </main>
  );
}

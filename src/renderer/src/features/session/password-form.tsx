/**
 * Change one's own password. The service revokes every refresh token of the account on a
 * change, so the desktop core signs in again with the new password at once; the service's
 * reason (too short, wrong current password) sits on the field it concerns.
 */
import { useRef, useState } from 'react';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import { ServiceError } from '../../../../shared/service-client/service-error';
import { ErrorNotice } from '../../ui/error-notice';
import { fieldErrorsOf, FieldMessage, reasonFor, useFocusFirstInvalid, type FieldErrors } from '../../ui/field-errors';
import { useSessionActions } from './use-session-actions';
import { putMePassword } from '../../../../shared/service-api/endpoints';

/** Renders the form for the signed-in user. */
export function PasswordForm({ username }: { username: string }) {
  const { client } = useServices();
  const actions = useSessionActions();
  const pushToast = useAppStore((s) => s.pushToast);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const service = fieldErrorsOf(error);
  // A wrong current password is refused as a whole (401/403): it belongs on that field.
  if (error instanceof ServiceError && (error.code === 'INVALID_CREDENTIALS' || error.status === 403))
    service.current_password = error.message;
  const errors: FieldErrors = { ...local, ...service };
  useFocusFirstInvalid(form, errors);

  const input = (id: string, label: string, value: string, set: (v: string) => void, auto: string) => {
    const reason = reasonFor(errors, id);
    return (
      <label className={`field${reason ? ' field-invalid' : ''}`}>
        <span>{label}</span>
        <input
          type="password"
          required
          autoComplete={auto}
          value={value}
          aria-invalid={reason ? true : undefined}
          aria-describedby={reason ? `${id}-reason` : undefined}
          onChange={(e) => set(e.target.value)}
        />
        <FieldMessage id={`${id}-reason`} message={reason} />
      </label>
    );
  };
  return (
    <form
      ref={form}
      className="card"
      aria-labelledby="password-title"
      data-testid="password-form"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        if (next !== again) {
          setLocal({ new_password_again: 'does not match the new password' });
          return;
        }
        setLocal({});
        setBusy(true);
        client
          .call(putMePassword, { body: { current_password: current, new_password: next } })
          // The change revoked the core's session: sign in again with the new password.
          .then(() => actions.login(username, next))
          .then(
            () => {
              setCurrent('');
              setNext('');
              setAgain('');
              pushToast({ tone: 'ok', message: 'Password changed' });
            },
            (err: unknown) => setError(err),
          )
          .finally(() => setBusy(false));
      }}
    >
      <h3 id="password-title">Change your password</h3>
      <div className="inline-form">
        {input('current_password', 'Current password', current, setCurrent, 'current-password')}
        {input('new_password', 'New password (at least 8 characters)', next, setNext, 'new-password')}
        {input('new_password_again', 'New password again', again, setAgain, 'new-password')}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Change password
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}

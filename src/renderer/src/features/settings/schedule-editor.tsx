/** The weekly bandwidth windows: days, from, to and the limit in Mbit/s, one row each. */
import type { BandwidthWindow } from '../../../../shared/desktop-api/contract';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Edits `windows`; every change goes to `onChange` (saved with the rest of the settings). */
export function ScheduleEditor({
  windows,
  onChange,
}: {
  windows: BandwidthWindow[];
  onChange(w: BandwidthWindow[]): void;
}) {
  const set = (i: number, patch: Partial<BandwidthWindow>) =>
    onChange(windows.map((w, j) => (j === i ? { ...w, ...patch } : w)));
  return (
    <fieldset className="card" data-testid="schedule">
      <legend>Bandwidth schedule</legend>
      <p className="field-help">
        In these windows uploads are held to the limit given (for example office hours on weekdays); outside them the
        always-on limit above applies.
      </p>
      {windows.length === 0 && <p className="muted">No windows: the always-on limit applies at all times.</p>}
      <ol className="plain-list">
        {windows.map((w, i) => (
          <li key={i} className="schedule-row" aria-label={`Window ${i + 1}`}>
            <fieldset className="days">
              <legend className="visually-hidden">Days of window {i + 1}</legend>
              {DAYS.map((d, day) => (
                <label key={d} className="day">
                  <input
                    type="checkbox"
                    checked={w.days.includes(day)}
                    aria-label={`${DAY_NAMES[day]} in window ${i + 1}`}
                    onChange={(e) =>
                      set(i, {
                        days: e.target.checked
                          ? [...w.days, day].sort((a, b) => a - b)
                          : w.days.filter((x) => x !== day),
                      })
                    }
                  />
                  {d}
                </label>
              ))}
            </fieldset>
            <label className="field">
              <span>From</span>
              <input type="time" value={w.start} required onChange={(e) => set(i, { start: e.target.value })} />
            </label>
            <label className="field">
              <span>To</span>
              <input type="time" value={w.end} required onChange={(e) => set(i, { end: e.target.value })} />
            </label>
            <label className="field">
              <span>Limit (Mbit/s)</span>
              <input
                type="number"
                min={0.1}
                step="any"
                required
                value={Number.isFinite(w.limit_mbps) ? w.limit_mbps : ''}
                onChange={(e) => set(i, { limit_mbps: Number(e.target.value) })}
              />
            </label>
            <button type="button" className="btn btn-small" onClick={() => onChange(windows.filter((_, j) => j !== i))}>
              Remove window {i + 1}
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="btn"
        onClick={() => onChange([...windows, { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00', limit_mbps: 10 }])}
      >
        Add a window
      </button>
    </fieldset>
  );
}

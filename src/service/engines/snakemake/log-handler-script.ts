/**
 * The Snakemake --log-handler-script Laneway writes into each run's work folder: it passes
 * Snakemake's structured log messages (job started, finished, failed, progress, shell commands,
 * info and errors) as JSON lines on the file descriptor LANEWAY_EVENTS_FD, apart from the
 * tools' own output. Kept as text here so that the bundled app needs no extra resource file.
 */
export const LOG_HANDLER_PY = `"""Snakemake --log-handler-script for Laneway: writes Snakemake's structured log messages
(job started, finished, failed, progress, shell commands, info and errors) as JSON lines on
the file descriptor named by LANEWAY_EVENTS_FD, apart from the tools' own output."""
import json
import os

_out = os.fdopen(int(os.environ.get("LANEWAY_EVENTS_FD", "3")), "w", buffering=1)
_KEEP = {"job_info", "job_finished", "job_error", "progress", "shellcmd", "info", "warning", "error", "run_info"}


def _plain(value):
    if hasattr(value, "items"):
        return {str(k): str(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or hasattr(value, "__iter__") and not isinstance(value, str):
        return [str(v) for v in value]
    return value


def log_handler(msg):
    level = msg.get("level")
    if level not in _KEEP:
        return
    out = {"level": level}
    for key in ("jobid", "name", "msg", "done", "total", "wildcards", "log", "output", "shellcmd"):
        if key in msg and msg[key] is not None:
            out[key] = _plain(msg[key]) if key in ("wildcards", "log", "output") else msg[key]
    try:
        _out.write(json.dumps(out, default=str) + "\\n")
    except (OSError, ValueError):
        pass
`;

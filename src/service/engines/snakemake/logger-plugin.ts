/**
 * Snakemake 9 replaced --log-handler-script with logger plugins, found as Python modules named
 * snakemake_logger_plugin_<name>. Laneway writes this one into the run's work folder, puts it
 * on PYTHONPATH and runs `snakemake --logger laneway`: it writes the same JSON lines as the
 * log-handler script (level, jobid, name, msg, done, total, wildcards, log, output, shellcmd)
 * on LANEWAY_EVENTS_FD, so one reader serves Snakemake 7, 8 and 9. Written against the
 * snakemake-interface-logger-plugins API (LogHandlerBase, records carrying `event`); not run
 * here, where Debian's Snakemake is 7.
 */
export const LOGGER_PLUGIN_MODULE = 'snakemake_logger_plugin_laneway';

export const LOGGER_PLUGIN_PY = `"""Laneway's Snakemake logger plugin: Snakemake's log events as JSON lines on the file
descriptor LANEWAY_EVENTS_FD, in the shape of Laneway's --log-handler-script."""
import json
import os
from dataclasses import dataclass

from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.settings import LogHandlerSettingsBase

_out = os.fdopen(int(os.environ.get("LANEWAY_EVENTS_FD", "3")), "w", buffering=1)
_KEEP = {"job_info", "job_finished", "job_error", "progress", "shellcmd", "info", "warning", "error", "run_info"}


@dataclass
class LogHandlerSettings(LogHandlerSettingsBase):
    pass


def _plain(value):
    if hasattr(value, "items"):
        return {str(k): str(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or hasattr(value, "__iter__") and not isinstance(value, str):
        return [str(v) for v in value]
    return value


class LogHandler(LogHandlerBase):
    @property
    def writes_to_stream(self):
        return False

    @property
    def writes_to_file(self):
        return False

    @property
    def has_filter(self):
        return True

    @property
    def has_formatter(self):
        return True

    @property
    def needs_rulegraph(self):
        return False

    def emit(self, record):
        event = getattr(record, "event", None)
        level = str(getattr(event, "value", event)) if event is not None else record.levelname.lower()
        if level not in _KEEP:
            return
        out = {"level": level}
        jobid = getattr(record, "jobid", None)
        if jobid is None:
            jobid = getattr(record, "job_id", None)
        if jobid is not None:
            out["jobid"] = jobid
        name = getattr(record, "rule_name", None) or getattr(record, "name", None)
        if level in ("job_info", "shellcmd") and name:
            out["name"] = name
        if level in ("info", "warning", "error", "run_info", "job_info"):
            msg = getattr(record, "rule_msg", None) if level == "job_info" else record.getMessage()
            if msg:
                out["msg"] = str(msg)
        for key in ("done", "total", "shellcmd"):
            value = getattr(record, key, None)
            if value is not None:
                out[key] = value
        for key in ("wildcards", "log", "output"):
            value = getattr(record, key, None)
            if value is not None:
                out[key] = _plain(value)
        try:
            _out.write(json.dumps(out, default=str) + "\\n")
        except (OSError, ValueError):
            pass
`;

/**
 * What the active service offers beyond the screens' common ground. A Flow server (a profile
 * whose wire is Flow, docs/flow-client.md) has samples, projects, pipelines, executions and
 * lanes through the desktop core, but no sharing, QC summaries, MultiQC, in-app report views,
 * cancelling, editing projects, run options, pushed updates or lane read counts: the screens show those
 * fields as not offered, each in its own place, instead of failing or hiding the whole screen.
 */
import { useAppStore } from '../store';

export interface ServiceOffers {
  /** The server's name for the notes ("this Flow server"). */
  label: string;
  sharing: boolean;
  qc: boolean;
  multiqc: boolean;
  reportView: boolean;
  cancel: boolean;
  projectChanges: boolean;
  laneReads: boolean;
  /** Priority, resources, test mode and chaining on a launch. */
  runOptions: boolean;
  /** A lane's index read files (I1/I2). */
  indexReads: boolean;
}

const EVERYTHING: ServiceOffers = {
  label: 'this service',
  sharing: true,
  qc: true,
  multiqc: true,
  reportView: true,
  cancel: true,
  projectChanges: true,
  laneReads: true,
  runOptions: true,
  indexReads: true,
};

const FLOW: ServiceOffers = {
  label: 'this Flow server',
  sharing: false,
  qc: false,
  multiqc: false,
  reportView: false,
  cancel: false,
  projectChanges: false,
  laneReads: false,
  runOptions: false,
  indexReads: false,
};

/** The active profile's offers. */
export function useServiceOffers(): ServiceOffers {
  const flow = useAppStore((s) => s.profiles?.profiles.find((p) => p.id === s.profiles?.active_id)?.wire === 'flow');
  return flow ? FLOW : EVERYTHING;
}

/** One field or panel the service does not offer, said where it would be. */
export function NotOffered({ what, inline = false }: { what: string; inline?: boolean }) {
  const { label } = useServiceOffers();
  const text = `${what}: not offered by ${label}`;
  if (inline)
    return (
      <span className="muted" data-testid="not-offered" title={text}>
        not offered
      </span>
    );
  return (
    <p className="muted" data-testid="not-offered">
      {text}.
    </p>
  );
}

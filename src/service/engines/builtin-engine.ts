/**
 * Built-in pipelines (quality control, trimming, demultiplexing) and a lab's own Node workers:
 * a Node child process started with a job file, speaking the engine protocol (protocol.ts) on
 * stdout. Anything on stderr is kept as ERROR log lines.
 */
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeEntry, type NodeCommand } from '../../node/node-entry';
import type { ManifestVersion } from '../pipelines/manifest';
import { EngineError, type Engine, type EngineJobInput, type EngineSink } from './engine';
import { parseEngineMessage, type EngineJob } from './protocol';
import { runChild } from './child-run';
import { usageFigures } from './self-usage';

// Worker entries relative to this module in the source tree; in the bundle, nodeEntry finds
// them by base name beside the running chunk.
const WORKERS = {
  qc: '../tools/qc/qc-worker',
  trim: '../tools/trim/trim-worker',
  demux: '../tools/demux/demux-worker',
} as const;

/** The command that starts a version's worker (a built-in one or a `node:` entry). */
export function workerCommand(engine: ManifestVersion['engine'], args: string[]): NodeCommand {
  if (engine.kind === 'builtin') return nodeEntry(import.meta.url, WORKERS[engine.worker], args);
  if (engine.kind === 'node') {
    const base = pathToFileURL(engine.entry.replace(/\.(ts|js)$/, '')).href;
    return nodeEntry(base, base, args);
  }
  throw new Error(`not a worker engine: ${engine.kind}`);
}

function handleLine(line: string, sink: EngineSink): void {
  const msg = parseEngineMessage(line);
  if (!msg) {
    if (line.trim()) sink.log('engine', 'INFO', line);
    return;
  }
  switch (msg.type) {
    case 'process':
      sink.process(msg.process, msg.status, msg.exit_code);
      break;
    case 'progress':
      sink.progress(msg.process, msg.progress);
      break;
    case 'log':
      sink.log(msg.process, msg.level, msg.message);
      break;
    case 'output':
      sink.output(msg.path, msg.data_type, msg.sample_id);
      break;
    case 'usage': {
      const { cpuPercent, memoryGb } = usageFigures(msg);
      sink.resources(msg.process, cpuPercent, memoryGb);
      break;
    }
  }
}

/**
 * A version without samples that takes an `input` data record (Demultiplexing) runs on that
 * record as its one input; barcodes given as NAME=BARCODE become annotation rows.
 */
export function workerInputs(job: EngineJobInput): {
  samples: EngineJobInput['samples'];
  parameters: Record<string, unknown>;
} {
  const parameters = { ...job.parameters };
  if (Array.isArray(parameters.barcodes) && parameters.rows === undefined) {
    parameters.rows = (parameters.barcodes as string[]).map((entry, i) => {
      const at = entry.lastIndexOf('=');
      // Row numbers as a sheet would show them (header is row 1); organism and category are
      // not known for barcodes typed in, and demultiplexing does not need them.
      return {
        row: i + 2,
        values: {
          'Sample Name': entry.slice(0, at).trim(),
          Barcode: entry.slice(at + 1).trim(),
          Organism: 'unspecified',
          Category: 'unspecified',
        },
      };
    });
    delete parameters.barcodes;
  }
  if (job.samples.length > 0 || !job.files.input) return { samples: job.samples, parameters };
  const read1 = job.files.input;
  return {
    samples: [
      {
        id: 0,
        name: basename(read1),
        read1,
        ...(job.files.input_read2 ? { read2: job.files.input_read2 } : {}),
        metadata: {},
      },
    ],
    parameters,
  };
}

/** The engine for one worker-based version. */
export function builtinEngine(engine: ManifestVersion['engine']): Engine {
  return {
    async run(job: EngineJobInput, sink: EngineSink) {
      const jobFile = join(job.workDir, 'job.json');
      const { samples, parameters } = workerInputs(job);
      const body: EngineJob & { files: Record<string, string> } = {
        parameters,
        samples,
        outDir: job.outDir,
        cpus: job.cpus,
        files: job.files,
        ...(job.maxReads ? { maxReads: job.maxReads } : {}),
      };
      writeFileSync(jobFile, JSON.stringify(body));
      const cmd = workerCommand(engine, [jobFile]);
      const code = await runChild({
        command: cmd.execPath,
        args: cmd.args,
        env: cmd.env,
        cwd: job.workDir,
        signal: job.signal,
        sink,
        onStdout: (line) => handleLine(line, sink),
        onStderr: (line) => line.trim() && sink.log('engine', 'ERROR', line),
      });
      if (code !== 0) throw new EngineError(`The pipeline process exited with code ${code}`);
    },
  };
}

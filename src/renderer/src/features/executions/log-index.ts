/**
 * An append-only index over a growing log: the levels and processes seen so far, and, per
 * filter, the matching lines. Each view is extended with only the lines added since it was last
 * read, so a new batch costs its own size, not the size of the log (100,000 lines and more).
 */
import type { LogEntry } from '../../service-client/types';

interface View {
  lines: LogEntry[];
  /** How many entries of the log this view has looked at. */
  scanned: number;
}

export class LogIndex {
  readonly entries: LogEntry[] = [];
  private readonly levelSet = new Set<string>();
  private readonly processSet = new Set<string>();
  private levelList: string[] = [];
  private processList: string[] = [];
  private readonly views = new Map<string, View>();

  /** Adds lines at the end. */
  append(lines: readonly LogEntry[]): void {
    let grew = false;
    for (const l of lines) {
      this.entries.push(l);
      if (!this.levelSet.has(l.level)) {
        this.levelSet.add(l.level);
        grew = true;
      }
      if (!this.processSet.has(l.process)) {
        this.processSet.add(l.process);
        grew = true;
      }
    }
    if (grew) {
      this.levelList = [...this.levelSet].sort();
      this.processList = [...this.processSet].sort();
    }
  }

  /** The sorted levels seen; the same array until a new one appears (stable for React). */
  get levels(): string[] {
    return this.levelList;
  }

  /** The sorted processes seen; the same array until a new one appears. */
  get processes(): string[] {
    return this.processList;
  }

  /** Lines matching the level and process ('' matches any), brought up to date first. */
  filtered(level: string, process: string): LogEntry[] {
    if (!level && !process) return this.entries;
    const key = `${level}\u0000${process}`;
    let view = this.views.get(key);
    if (!view) this.views.set(key, (view = { lines: [], scanned: 0 }));
    const { entries } = this;
    for (let i = view.scanned; i < entries.length; i++) {
      const l = entries[i]!;
      if ((!level || l.level === level) && (!process || l.process === process)) view.lines.push(l);
    }
    view.scanned = entries.length;
    return view.lines;
  }
}

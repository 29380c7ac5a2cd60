/**
 * The change pollers every stream of the API waits on (the widget's conversation stream, a call's
 * stream, the console's stream): one reader per kind of stream per API process, never one per stream,
 * so an idle stream costs the store nothing whatever the number open.
 *
 * The store has no change streams (DESIGN.md section 3). Rows a stream waits for carry `window`, the
 * `CHANGE_WINDOW_MS` window of when they were written (src/models/conversations.ts `changeWindow`, 5 s
 * each), indexed; while a process serves at least one stream of a kind, every `WIDGET_STREAM_POLL_MS`
 * (default 200 ms) its poller reads the rows of the current and the previous window (equality lookups on
 * the `{window: 1}` index: an idle service reads no rows at all, a busy one the last 5–10 s of changes)
 * and wakes the streams they concern. With no stream open the poller stops (no timer, no query). Every API
 * process polls the store itself, so any process serves any stream and nothing in memory matters across
 * processes. Assumes the clocks of the API and worker hosts agree within the 5 s a window is wide (NTP).
 *
 * `PollLoop` is the loop (its timer, its start and stop, its counters); `WindowPoller` is a loop over
 * keyed watchers that each read their own log by `_id` once woken (widget and call streams).
 */
import { config } from '../config';
import { logger } from '../logger';
import { changeWindow, CHANGE_WINDOW_MS } from '../models/conversations';

/** What a poller has done in this process since it started (for tests, benches and operators). */
export interface PollerState {
  /** Keys (conversations, calls) or streams watched now. */
  watched: number;
  /** Whether the loop runs (a timer is set or a tick is under way). */
  polling: boolean;
  /** Ticks run. */
  polls: number;
  /** Store queries the ticks made (each a lookup on a `{window: 1}` index or by `_id`). */
  reads: number;
}

/**
 * A loop that calls `tick` every `WIDGET_STREAM_POLL_MS` while `active()` is true, and stops (no timer
 * left) at the first turn where it is false. `tick` must not throw (it logs its own failures).
 */
export class PollLoop {
  polls = 0;
  reads = 0;
  private running: Promise<void> | null = null;

  constructor(
    private readonly tick: (first: boolean) => Promise<void>,
    private readonly active: () => boolean,
  ) {}

  /**
   * Starts the loop unless it runs. `immediate`: the first tick is taken now (with `first` true) and the
   * returned promise resolves once it is done; otherwise the first comes after one period.
   */
  start(immediate = false): Promise<void> {
    if (this.running) return this.running;
    if (!immediate) {
      this.running = Promise.resolve();
      this.schedule();
      return this.running;
    }
    this.running = this.run(true).finally(() => this.schedule());
    return this.running;
  }

  get polling(): boolean {
    return this.running !== null;
  }

  private async run(first: boolean): Promise<void> {
    try {
      await this.tick(first);
    } finally {
      this.polls++;
    }
  }

  private schedule(): void {
    setTimeout(() => {
      if (!this.active()) {
        this.running = null;
        return;
      }
      void this.run(false).finally(() => this.schedule());
    }, config().widgetStreamPollMs).unref();
  }
}

/** A row a poll found: the key it concerns (a conversation, a call) and its place in that key's log. */
export interface ChangeRow {
  key: string;
  /** The row's place in its key's log; `Infinity` wakes every watcher of the key. */
  seq: number;
}

/** One store query a poller runs on a change window. */
export interface ChangeSource {
  /** The rows of change window `window` (one query). */
  read: (window: string) => Promise<ChangeRow[]>;
  /** Run at every `every`-th tick only (default 1: each tick), for changes that may wait a little. */
  every?: number;
}

/** A stream waiting for its key's next log entry. */
export interface ChangeWatcher {
  key: string;
  /** The place of the last entry the stream has sent (0: none). */
  last(): number;
  /** Called when the key has an entry after `last()` (or may have, after a failed poll). */
  wake(): void;
}

/**
 * A poller over keyed logs: each tick runs each of `sources` due at that tick on the previous and the
 * current change window (one store query each) and wakes the watchers of the keys whose rows are past their `last()`. A
 * tick that fails (the store unreachable) is retried at the next, and the first that succeeds after it
 * wakes every watcher once (each reads its next entry by `_id`), so a row written during the outage is
 * not missed.
 */
export class WindowPoller {
  private readonly watchers = new Map<string, Set<ChangeWatcher>>();
  private missed = false;
  private readonly loop: PollLoop;

  /**
   * @param name what is polled, for the warning logged when a tick fails (`widget stream`)
   * @param sources each one store query on a change window
   */
  constructor(
    private readonly name: string,
    private readonly sources: ChangeSource[],
  ) {
    this.loop = new PollLoop(
      () => this.tick(),
      () => this.watchers.size > 0,
    );
  }

  /** Registers `watcher` (the loop started by the first) and returns the function that removes it. */
  watch(watcher: ChangeWatcher): () => void {
    let set = this.watchers.get(watcher.key);
    if (!set) this.watchers.set(watcher.key, (set = new Set()));
    set.add(watcher);
    void this.loop.start();
    return () => {
      const current = this.watchers.get(watcher.key);
      current?.delete(watcher);
      if (current?.size === 0) this.watchers.delete(watcher.key);
    };
  }

  /** Keys watched, whether the loop runs, its ticks and queries so far. */
  state(): PollerState {
    return { watched: this.watchers.size, polling: this.loop.polling, polls: this.loop.polls, reads: this.loop.reads };
  }

  private async tick(): Promise<void> {
    if (this.watchers.size === 0) return;
    try {
      const now = Date.now();
      const tick = this.loop.polls;
      // After a failed tick every source runs, whatever it is due: the wake-up below covers what it missed.
      const due = this.sources.filter((source) => this.missed || tick % (source.every ?? 1) === 0);
      for (const window of [changeWindow(now - CHANGE_WINDOW_MS), changeWindow(now)])
        for (const source of due) {
          this.loop.reads++;
          for (const row of await source.read(window))
            for (const watcher of this.watchers.get(row.key) ?? []) if (row.seq > watcher.last()) watcher.wake();
        }
      if (this.missed) {
        this.missed = false;
        for (const set of this.watchers.values()) for (const watcher of set) watcher.wake();
      }
    } catch (err) {
      if (!this.missed) logger.warn(`${this.name} poll failed; retried at the next tick`, { error: String(err) });
      this.missed = true;
    }
  }
}

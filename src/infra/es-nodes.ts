import { AsyncLocalStorage } from 'node:async_hooks';
import type { Client } from '@elastic/elasticsearch';

/**
 * Where one read may go: the connections (nodes) it must not be coordinated by. The client's node
 * filter reads it, and writes back the connection it chose, so a hedge can avoid that one too.
 */
interface Route {
  avoid: ReadonlySet<string>;
  coordinator?: string;
}

const routes = new AsyncLocalStorage<Route>();

/**
 * The client's node filter (createEsClient). Outside a steered read every node may coordinate. The
 * transport asks it once per candidate, in the pool's order, and uses the first it accepts.
 */
export function steeredNodeFilter(connection: { id: string }): boolean {
  const route = routes.getStore();
  if (route === undefined) return true;
  if (route.avoid.has(connection.id)) return false;
  route.coordinator = connection.id;
  return true;
}

/** Runs `call` with its Elasticsearch requests coordinated by nodes outside `avoid`; `route.coordinator` says which. */
export function steered<T>(avoid: ReadonlySet<string>, call: () => Promise<T>): { route: Route; result: Promise<T> } {
  const route: Route = { avoid };
  return { route, result: routes.run(route, call) };
}

export interface NodeWatchOptions {
  /** How often each node is asked whether it answers. */
  probeEveryMs: number;
  /** A probe unanswered this long makes its node a suspect, until a probe answers again. */
  suspectAfterMs: number;
  /** How long a node blamed for too many hedges is left out before probes may bring it back. */
  leaveOutMs: number;
  /** Hedges won against one node within `leaveOutMs` that leave it out. */
  blameLimit: number;
  now?: () => number;
}

export const NODE_WATCH_DEFAULTS: NodeWatchOptions = { probeEveryMs: 250, suspectAfterMs: 300, leaveOutMs: 5000, blameLimit: 3 };

/** What the API knows of each Elasticsearch node it talks to. */
export interface NodeWatch {
  /** Connections (by id) not to send reads to now: unanswered probes, or too many hedges lost. */
  suspects(): ReadonlySet<string>;
  /**
   * The suspects whose probes go unanswered or fail: nodes a read may wait on for good, not merely
   * slow ones. Every shard keeps a copy outside them (one replica survives one node), which is
   * not so once slow nodes are avoided too.
   */
  unanswering(): ReadonlySet<string>;
  /** Every connection's id. */
  connections(): string[];
  /**
   * The `preference` that keeps shard reads on nodes outside `avoid` (`_prefer_nodes:`), or
   * undefined when that leaves none, or their Elasticsearch ids are not known yet.
   */
  preferenceAvoiding(avoid: ReadonlySet<string>): string | undefined;
  /** A hedge won over a read that this connection coordinated. */
  blame(connection: string): void;
  /** Called with a connection's id when it becomes a suspect, or a suspect stops answering. */
  onSuspect(listener: (connection: string) => void): void;
  close(): void;
}

interface NodeState {
  /** Its Elasticsearch node id, once a probe learned it. */
  nodeId?: string;
  /** When the probe in flight was sent, or undefined. */
  probing?: number;
  /** The last probe failed (refused, an error status). */
  failed: boolean;
  /** Left out for hedges until then. */
  leftOutUntil: number;
  blames: number[];
  suspect: boolean;
  /** Its probes fail or go unanswered (see `unanswering`). */
  silent: boolean;
}

interface ProbedConnection {
  id: string;
  request(
    params: { method: string; path: string; querystring?: string },
    options: Record<string, unknown>,
  ): Promise<{ statusCode: number; body: unknown }>;
}

const PROBE_ABANDON_MS = 5000;

/**
 * Watches each node of a client's pool: a cheap request every `probeEveryMs`, straight to that
 * node's connection. A stopped process (a GC pause, a frozen VM, SIGSTOP) keeps its connections
 * open and answers nothing, so neither the transport (which marks a node dead when a request fails)
 * nor Elasticsearch (whose follower checks take about 30 s) notices it soon. A probe that has not
 * answered within `suspectAfterMs` does: reads avoid the node from then until a probe answers.
 */
export function watchNodes(es: Client, options: NodeWatchOptions = NODE_WATCH_DEFAULTS): NodeWatch {
  const { probeEveryMs, suspectAfterMs, leaveOutMs, blameLimit, now = Date.now } = options;
  const states = new Map<string, NodeState>();
  const listeners: ((connection: string) => void)[] = [];
  const pool = () => es.connectionPool.connections as unknown as ProbedConnection[];

  const stateOf = (id: string) => {
    let state = states.get(id);
    if (state === undefined) {
      state = { failed: false, leftOutUntil: 0, blames: [], suspect: false, silent: false };
      states.set(id, state);
    }
    return state;
  };

  const unanswered = (state: NodeState, at: number) => state.failed || (state.probing !== undefined && at - state.probing >= suspectAfterMs);

  function judge(id: string, state: NodeState, at: number): void {
    const silent = unanswered(state, at);
    const suspect = silent || state.leftOutUntil > at;
    // Told when a node becomes a suspect, and again when a suspect left out for lost hedges stops
    // answering: reads steered to its shard copies (not avoided while merely slow) must move too.
    const tell = (suspect && !state.suspect) || (silent && !state.silent);
    state.suspect = suspect;
    state.silent = silent;
    if (tell) {
      // Told after the caller's turn: a read asking for the suspects must not be rerouted inside that call.
      queueMicrotask(() => {
        for (const listener of listeners) listener(id);
      });
    }
  }

  async function probe(connection: ProbedConnection, state: NodeState): Promise<void> {
    state.probing = now();
    try {
      // Its id (for `preference`; a node replaced behind the same address gets a new one), from
      // the smallest section of node info: 2 ms against an idle node.
      const { statusCode, body } = await connection.request(
        { method: 'GET', path: '/_nodes/_local/http', querystring: 'filter_path=nodes.*.name' },
        { requestId: 'probe', context: null, timeout: PROBE_ABANDON_MS, maxResponseSize: 65_536 },
      );
      state.failed = statusCode >= 300;
      if (!state.failed) {
        state.nodeId = Object.keys((JSON.parse(String(body)) as { nodes: object }).nodes)[0];
        // The transport marks a node dead when a request to it times out, and leaves it out for a
        // minute. But a coordinator times out too when it waits on a shard copy a stopped node
        // holds: with that node a suspect and the others marked dead, no node was left to read
        // from (a chaos soak's 503s). So while another node does not answer, one that answers its
        // probe is alive again. Otherwise the transport's judgement stands: a node can answer
        // this probe from memory while its searches fail (a stalled disk), and stays out.
        const pooled = es.connectionPool.connections.find((c) => c.id === connection.id);
        const at = now();
        const anotherSilent = [...states].some(([id, other]) => id !== connection.id && unanswered(other, at));
        if (pooled !== undefined && pooled.status === 'dead' && anotherSilent) es.connectionPool.markAlive(pooled);
      }
    } catch {
      state.failed = true;
    } finally {
      state.probing = undefined;
      judge(connection.id, state, now());
    }
  }

  const timer = setInterval(() => {
    // A closed client has emptied its pool: nothing is left to watch.
    if (pool().length === 0) return clearInterval(timer);
    const at = now();
    for (const connection of pool()) {
      const state = stateOf(connection.id);
      if (state.probing === undefined) void probe(connection, state);
      judge(connection.id, state, at);
    }
  }, probeEveryMs);
  timer.unref();

  return {
    suspects() {
      const at = now();
      const found = new Set<string>();
      for (const [id, state] of states) {
        judge(id, state, at);
        if (state.suspect) found.add(id);
      }
      return found;
    },
    unanswering() {
      const at = now();
      const found = new Set<string>();
      for (const [id, state] of states) if (unanswered(state, at)) found.add(id);
      return found;
    },
    connections: () => pool().map((connection) => connection.id),
    preferenceAvoiding(avoid) {
      if (avoid.size === 0) return undefined;
      const ids: string[] = [];
      for (const connection of pool()) {
        if (avoid.has(connection.id)) continue;
        const nodeId = states.get(connection.id)?.nodeId;
        if (nodeId === undefined) return undefined;
        ids.push(nodeId);
      }
      return ids.length === 0 ? undefined : `_prefer_nodes:${ids.join(',')}`;
    },
    blame(connection) {
      const state = stateOf(connection);
      const at = now();
      state.blames = [...state.blames.filter((t) => at - t < leaveOutMs), at];
      // Never the last node standing: left out too, every node would be a suspect and reads unsteered.
      const others = pool().filter((c) => c.id !== connection);
      const lastStanding = others.every((c) => states.get(c.id)?.suspect === true);
      if (state.blames.length >= blameLimit && !lastStanding) {
        state.blames = [];
        state.leftOutUntil = at + leaveOutMs;
        judge(connection, state, at);
      }
    },
    onSuspect: (listener) => void listeners.push(listener),
    close: () => clearInterval(timer),
  };
}

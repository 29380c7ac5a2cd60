/**
 * Agents (issue 35 item 5): edit an agent's instructions, tools, voice, analysis plan and replay rubric
 * (`POST /v1/agents/{id}`), and place a test call with it (`POST /v1/calls`, simulated in test mode),
 * then follow it on its call page; its replays are linked (pages/replays.tsx).
 */
import { useLocation, useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { can, useSession } from '../session';
import type { Agent, Call } from '../types';
import { ErrorBox, messageOf } from '../ui';
import { useAgents } from './calls';

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

function parseJson(label: string, text: string): unknown {
  if (!text.trim()) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${label} is not valid JSON.`);
  }
}

function Editor({ agent, onSaved }: { agent: Agent; onSaved: (a: Agent) => void }) {
  const { session } = useSession();
  const { route } = useLocation();
  // Editing an agent takes `agents:write`, which only admins hold (src/services/console-sessions.ts
  // `ROLE_SCOPES`); a test call takes `calls:write`, which agents hold too.
  const writer = can.admin(session.user.role);
  const caller = can.write(session.user.role);
  const [instructions, setInstructions] = useState(agent.instructions);
  const [toolIds, setToolIds] = useState((agent.tool_ids ?? []).join(', '));
  const [enabled, setEnabled] = useState((agent.enabled_tools ?? []).join(', '));
  const [voice, setVoice] = useState(agent.voice ? JSON.stringify(agent.voice, null, 2) : '');
  const [analysis, setAnalysis] = useState(agent.analysis ? JSON.stringify(agent.analysis, null, 2) : '');
  const [rubric, setRubric] = useState(agent.replay_rubric ?? '');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [to, setTo] = useState('+15555550100');
  const [lines, setLines] = useState('Hello\nThanks, bye');
  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    try {
      const body = {
        instructions,
        tool_ids: list(toolIds),
        enabled_tools: list(enabled),
        voice: parseJson('Voice', voice),
        analysis: parseJson('Analysis plan', analysis),
        replay_rubric: rubric.trim() ? rubric : null,
      };
      onSaved(await api<Agent>('POST', `/v1/agents/${agent.id}`, body));
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div class="grid2">
      <form class="stack card" onSubmit={save} aria-label="Edit agent">
        <h2>{agent.name}</h2>
        <label for="ag-instructions">Instructions</label>
        <textarea
          id="ag-instructions"
          rows={10}
          value={instructions}
          readOnly={!writer}
          onInput={(e) => setInstructions(e.currentTarget.value)}
        />
        <label for="ag-tools">Tool ids (comma-separated)</label>
        <input id="ag-tools" value={toolIds} readOnly={!writer} onInput={(e) => setToolIds(e.currentTarget.value)} />
        <label for="ag-enabled">Built-in tools (comma-separated)</label>
        <input id="ag-enabled" value={enabled} readOnly={!writer} onInput={(e) => setEnabled(e.currentTarget.value)} />
        <label for="ag-voice">Voice (JSON, empty for the default)</label>
        <textarea
          id="ag-voice"
          rows={3}
          value={voice}
          readOnly={!writer}
          onInput={(e) => setVoice(e.currentTarget.value)}
        />
        <label for="ag-analysis">Analysis plan (JSON, empty for none)</label>
        <textarea
          id="ag-analysis"
          rows={5}
          value={analysis}
          readOnly={!writer}
          onInput={(e) => setAnalysis(e.currentTarget.value)}
        />
        <label for="ag-rubric">Replay rubric (what replays judge by; empty for none)</label>
        <textarea
          id="ag-rubric"
          rows={3}
          value={rubric}
          readOnly={!writer}
          onInput={(e) => setRubric(e.currentTarget.value)}
        />
        {error ? (
          <p class="error" role="alert">
            {messageOf(error)}
          </p>
        ) : null}
        {saved ? <p role="status">Saved.</p> : null}
        {writer ? (
          <button type="submit" class="primary">
            Save agent
          </button>
        ) : null}
      </form>
      {caller && session.mode === 'test' ? (
        <form
          class="stack card"
          aria-label="Test call"
          onSubmit={async (e) => {
            e.preventDefault();
            setError(null);
            try {
              const call = await api<Call>('POST', '/v1/calls', {
                agent_id: agent.id,
                to,
                simulation: { caller: lines.split('\n').filter((l) => l.trim()) },
              });
              route(`/console/calls/${call.id}`);
            } catch (err) {
              setError(err);
            }
          }}
        >
          <h2>Test call</h2>
          <label for="tc-to">Number</label>
          <input id="tc-to" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
          <label for="tc-lines">What the simulated caller says (one line each)</label>
          <textarea id="tc-lines" rows={4} value={lines} onInput={(e) => setLines(e.currentTarget.value)} />
          <button type="submit">Place test call</button>
        </form>
      ) : null}
    </div>
  );
}

export function AgentsPage() {
  const id: string | undefined = useRoute().params.id;
  const agents = useAgents();
  const [agent, setAgent] = useState<Agent | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setAgent(null);
    if (id) api<Agent>('GET', `/v1/agents/${id}`).then(setAgent, setError);
  }, [id]);
  return (
    <main id="main">
      <h1>Agents</h1>
      <ErrorBox error={agents.error ?? error} />
      <ul class="tabs">
        {(agents.data ?? []).map((a) => (
          <li key={a.id}>
            <a href={`/console/agents/${a.id}`} aria-current={a.id === id ? 'page' : undefined}>
              {a.name}
            </a>
          </li>
        ))}
      </ul>
      {agents.data && agents.data.length === 0 ? <p class="muted">No agents.</p> : null}
      {agent ? (
        <p>
          <a href={`/console/agents/${agent.id}/replays`} data-testid="agent-replays">
            Replays of {agent.name}
          </a>{' '}
          <span class="muted">(recorded calls replayed against a version, compared side by side)</span>
        </p>
      ) : null}
      {agent ? (
        <Editor key={agent.id} agent={agent} onSaved={setAgent} />
      ) : id ? null : (
        <p class="muted">Pick an agent.</p>
      )}
    </main>
  );
}

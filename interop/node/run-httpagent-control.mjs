// Drives the control routes of a Go AG-UI endpoint the way a client built
// on @ag-ui/client would, for interop/agui_server_test.go, and prints what
// each step saw as one JSON object:
//   declared:     typeof HttpAgent#getCapabilities: @ag-ui/client 1.0.0
//                 declares getCapabilities?() but HttpAgent does not
//                 implement it, hence the subclass below;
//   capabilities: its getCapabilities, GET {URL}/capabilities parsed with
//                 @ag-ui/core's AgentCapabilitiesSchema;
//   cancel:       a run streamed by HttpAgent, cancelled with POST
//                 {URL}/cancel once the agent has sent STATE_SNAPSHOT; the
//                 cancel's status, the run's events and its outcome;
//   late:         the status of the same cancel once the run has ended.
//
//   node run-httpagent-control.mjs URL
import { HttpAgent } from "@ag-ui/client";
import { AgentCapabilitiesSchema } from "@ag-ui/core/schemas";

const [url] = process.argv.slice(2);

class CapableHttpAgent extends HttpAgent {
  async getCapabilities() {
    const res = await fetch(`${this.url}/capabilities`, { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(`GET ${this.url}/capabilities: HTTP ${res.status}`);
    return AgentCapabilitiesSchema.parse(await res.json());
  }
}

async function cancel(threadId, runId) {
  const res = await fetch(`${url}/cancel`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ threadId, runId }),
  });
  return res.status;
}

const out = { declared: typeof new HttpAgent({ url }).getCapabilities };
const threadId = "thread-cancel";
const agent = new CapableHttpAgent({ url, threadId, initialMessages: [{ id: "u-1", role: "user", content: "slow" }] });
try {
  out.capabilities = { ok: true, value: await agent.getCapabilities() };
} catch (err) {
  out.capabilities = { ok: false, error: String(err?.message ?? err) };
}

const events = [];
let outcome = null;
let cancelled;
try {
  await agent.runAgent({ runId: "run-cancel" }, {
    onEvent: ({ event }) => {
      events.push(event);
      if (event.type === "STATE_SNAPSHOT") cancelled = cancel(threadId, "run-cancel");
    },
    onRunFinishedEvent: ({ event }) => { outcome = event.outcome ?? null; },
  });
  out.cancel = { ok: true };
} catch (err) {
  out.cancel = { ok: false, error: String(err?.message ?? err) };
}
Object.assign(out.cancel, { status: await cancelled, eventTypes: events.map((e) => e.type), events, outcome });
out.late = { status: await cancel(threadId, "run-cancel") };
console.log(JSON.stringify(out));

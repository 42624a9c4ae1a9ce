// Runs the ResumingHttpAgent of docs/agui.md against a Go AG-UI endpoint,
// for interop/agui_resume_test.go, which extracts the class from the doc
// into MODULE. Prints what the run saw as one JSON object: ok, error, the
// events as the subscriber's onEvent got them, the messages, and the
// reconnections the agent made.
//
//   node run-httpagent-resume.mjs MODULE URL THREAD RUN           a run
//   node run-httpagent-resume.mjs MODULE URL THREAD RUN --join    joins it (connectAgent)
import { pathToFileURL } from "node:url";

const [module, url, threadId, runId, mode] = process.argv.slice(2);
const { ResumingHttpAgent } = await import(pathToFileURL(module).href);

const join = mode === "--join";
const agent = new ResumingHttpAgent({
  url,
  threadId,
  initialMessages: join ? [] : [{ id: "u-1", role: "user", content: "Tell me a story." }],
});
const reconnects = [];
agent.onReconnect = (n, error) => reconnects.push({ n, error: error ? String(error.message ?? error) : null });

const out = { ok: true, events: [], reconnects };
const subscriber = { onEvent: ({ event }) => { out.events.push(event); } };
try {
  if (join) await agent.connectAgent({ runId }, subscriber);
  else await agent.runAgent({ runId }, subscriber);
} catch (err) {
  Object.assign(out, { ok: false, error: String(err?.message ?? err) });
}
out.messages = agent.messages;
console.log(JSON.stringify(out));

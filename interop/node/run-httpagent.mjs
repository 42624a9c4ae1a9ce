// Runs @ag-ui/client's HttpAgent once against an AG-UI endpoint and prints
// what the application would see, as one JSON object on stdout:
//   {"ok": true, "eventTypes": [...], "messages": [...], "state": ..., "result": ...}
// or {"ok": false, "error": "..."} when the client rejected the run.
//
//   node run-httpagent.mjs URL [USER_TEXT]
import { HttpAgent } from "@ag-ui/client";

const [url, text = "What is the weather in Paris?"] = process.argv.slice(2);
if (!url) {
  console.error("usage: node run-httpagent.mjs URL [USER_TEXT]");
  process.exit(2);
}

const agent = new HttpAgent({
  url,
  threadId: "thread-interop",
  initialMessages: [{ id: "user-1", role: "user", content: text }],
});
const eventTypes = [];
const warnings = [];
const origWarn = console.warn;
console.warn = (...args) => warnings.push(args.map(String).join(" "));
try {
  const { result } = await agent.runAgent(
    { runId: "run-interop" },
    { onEvent: ({ event }) => { eventTypes.push(event.type); } },
  );
  console.warn = origWarn;
  console.log(JSON.stringify({ ok: true, eventTypes, messages: agent.messages, state: agent.state, result, warnings }));
} catch (err) {
  console.warn = origWarn;
  console.log(JSON.stringify({ ok: false, error: String(err?.message ?? err), eventTypes, warnings }));
}

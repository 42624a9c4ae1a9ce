// Runs @ag-ui/client's HttpAgent once against an AG-UI endpoint and prints
// what the application would see, as one JSON object on stdout:
//   {"ok": true, "eventTypes": [...], "messages": [...], "state": ..., "result": ...}
// or {"ok": false, "error": "..."} when the client rejected the run.
//
//   node run-httpagent.mjs [--proto] URL [USER_TEXT]
// With --proto the agent asks for the protobuf transport (HttpAgent always
// sends Accept: text/event-stream, so a subclass overrides requestInit);
// the client then reads the length-prefixed frames with @ag-ui/proto.
import { HttpAgent } from "@ag-ui/client";

const args = process.argv.slice(2);
const proto = args[0] === "--proto";
if (proto) args.shift();
const [url, text = "What is the weather in Paris?"] = args;
if (!url) {
  console.error("usage: node run-httpagent.mjs [--proto] URL [USER_TEXT]");
  process.exit(2);
}

class ProtoHttpAgent extends HttpAgent {
  requestInit(input) {
    const init = super.requestInit(input);
    init.headers = { ...init.headers, Accept: "application/vnd.ag-ui.event+proto" };
    return init;
  }
}

const agent = new (proto ? ProtoHttpAgent : HttpAgent)({
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

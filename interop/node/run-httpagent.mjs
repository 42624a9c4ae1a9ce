// Runs @ag-ui/client's HttpAgent once against an AG-UI endpoint and prints
// what the application would see, as one JSON object on stdout:
//   {"ok": true, "eventTypes": [...], "messages": [...], "state": ..., "result": ...}
// or {"ok": false, "error": "..."} when the client rejected the run.
//
//   node run-httpagent.mjs [--client 0.0.59] [--proto] URL [USER_TEXT]
// With --proto the agent asks for the protobuf transport (HttpAgent always
// sends Accept: text/event-stream, so a subclass overrides requestInit);
// the client reads whichever transport the Content-Type names. With
// --client 0.0.59 the run is made by @ag-ui/client 0.0.59 (the one
// CopilotKit 1.74/1.75 bundles), which declares no protocol version,
// instead of 1.0.0.
const args = process.argv.slice(2);
let clientVersion = "1.0.0";
if (args[0] === "--client") {
  clientVersion = args[1];
  args.splice(0, 2);
}
const proto = args[0] === "--proto";
if (proto) args.shift();
const [url, text = "What is the weather in Paris?"] = args;
const clients = { "1.0.0": "@ag-ui/client", "0.0.59": "agui-client-v0059" };
if (!url || !clients[clientVersion]) {
  console.error("usage: node run-httpagent.mjs [--client 0.0.59] [--proto] URL [USER_TEXT]");
  process.exit(2);
}
const { HttpAgent } = await import(clients[clientVersion]);

class ProtoHttpAgent extends HttpAgent {
  requestInit(input) {
    const init = super.requestInit(input);
    init.headers = { ...init.headers, Accept: "application/vnd.ag-ui.event+proto" };
    return init;
  }
}

let contentType; // of the response: the transport served
const agent = new (proto ? ProtoHttpAgent : HttpAgent)({
  url,
  threadId: "thread-interop",
  initialMessages: [{ id: "user-1", role: "user", content: text }],
  fetch: async (input, init) => {
    const res = await fetch(input, init);
    contentType = res.headers.get("content-type");
    return res;
  },
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
  console.log(JSON.stringify({ ok: true, eventTypes, messages: agent.messages, state: agent.state, result, warnings, contentType }));
} catch (err) {
  console.warn = origWarn;
  console.log(JSON.stringify({ ok: false, error: String(err?.message ?? err), eventTypes, warnings, contentType }));
}

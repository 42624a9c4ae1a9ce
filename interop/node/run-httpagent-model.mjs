// Runs @ag-ui/client's HttpAgent against AG-UI endpoints, one run each, in
// one process (Node's start costs more than a run). The runs come as a JSON
// array on stdin:
//   [{"url": "...", "messages": [...], "tools": [...]}, ...]
// and for each it prints, in a JSON array on stdout, every event the client
// emitted (each as its onEvent subscriber got it, after the client's
// verifier), the messages it built, the RUN_ERROR it saw, and how runAgent
// ended:
//   {"ok": true|false, "error": "...", "events": [...], "messages": [...], "runError": {...}, "warnings": [...]}
// A stream the verifier rejects makes runAgent throw: "ok": false.
import { HttpAgent } from "@ag-ui/client";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const origWarn = console.warn;
const origError = console.error;
const reports = [];
for (const run of JSON.parse(input)) reports.push(await runOnce(run));
console.log(JSON.stringify(reports));

async function runOnce({ url, messages = [], tools = [] }) {
  const agent = new HttpAgent({ url, threadId: "thread-model", initialMessages: messages });
  const events = [];
  const warnings = [];
  let runError;
  console.warn = (...args) => warnings.push(args.map(String).join(" "));
  // runAgent logs "Agent execution failed" before it throws; the throw is
  // what this script reports.
  console.error = () => {};
  const report = { events, warnings };
  try {
    await agent.runAgent(
      { runId: "run-model", tools },
      {
        onEvent: ({ event }) => { events.push(event); },
        onRunErrorEvent: ({ event }) => { runError = event; },
      },
    );
    report.ok = true;
  } catch (err) {
    report.ok = false;
    report.error = String(err?.message ?? err);
  }
  console.warn = origWarn;
  console.error = origError;
  report.messages = agent.messages;
  report.runError = runError;
  return report;
}

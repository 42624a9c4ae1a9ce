// A minimal AG-UI server on @ag-ui/encoder: every POST gets the same scripted
// run, encoded by the official EventEncoder for the request's Accept header.
// Prints "listening <port>" on stdout once ready; binds 127.0.0.1 only.
//
//   node serve-encoder.mjs [--events N]   (N text fragments, default 5)
import { createServer } from "node:http";
import { EventEncoder } from "@ag-ui/encoder";

const n = Number(process.argv[process.argv.indexOf("--events") + 1]) || 5;

function* script(threadId, runId) {
  yield { type: "RUN_STARTED", threadId, runId, protocolVersion: "1.0" };
  yield { type: "STATE_SNAPSHOT", snapshot: { status: "working", count: 0 } };
  yield { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" };
  for (let i = 0; i < n; i++) yield { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: `chunk ${i} ` };
  yield { type: "TEXT_MESSAGE_END", messageId: "m1" };
  yield { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "lookup", parentMessageId: "m1" };
  yield { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"q":"paris"}' };
  yield { type: "TOOL_CALL_END", toolCallId: "c1" };
  yield { type: "TOOL_CALL_RESULT", messageId: "t1", toolCallId: "c1", content: "sunny", role: "tool" };
  yield { type: "STATE_DELTA", delta: [{ op: "replace", path: "/status", value: "done" }, { op: "replace", path: "/count", value: n }] };
  yield { type: "RUN_FINISHED", threadId, runId };
}

const server = createServer((req, res) => {
  if (req.method !== "POST") { res.writeHead(405, { Allow: "POST" }).end(); return; }
  let body = "";
  req.on("data", (c) => { body += c; });
  req.on("end", () => {
    let input = {};
    try { input = JSON.parse(body); } catch { res.writeHead(400).end(); return; }
    const encoder = new EventEncoder({ accept: req.headers.accept });
    res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
    for (const ev of script(input.threadId ?? "t", input.runId ?? "r")) res.write(encoder.encodeBinary(ev));
    res.end();
  });
});
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));

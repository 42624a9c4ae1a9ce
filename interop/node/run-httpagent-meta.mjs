// Drives a thread's feedback the way a browser would, for
// interop/meta_test.go, and prints what each step saw as one JSON object:
//   intake:  fetch POSTs {URL}/meta a batch of two META events, one of them
//            carried in CUSTOM{name:"meta"}, as @ag-ui/core's CUSTOM shape;
//   again:   the same batch sent again (stored once: the same seqs);
//   run:     @ag-ui/client's HttpAgent runs on the thread; the stored
//            feedback is replayed and the agent adds its own META, all as
//            CUSTOM{name:"meta"}, which HttpAgent 1.0.0 accepts;
//   query:   fetch GETs {URL}/meta?threadId=…&metaType=thumbs_up;
//   native:  HttpAgent against NATIVE_URL, a handler that sends META as
//            META, which HttpAgent 1.0.0 drops (why CUSTOM is the default).
//
//   node run-httpagent-meta.mjs URL NATIVE_URL
import { HttpAgent } from "@ag-ui/client";

const [url, nativeURL] = process.argv.slice(2);
const threadId = "thread-feedback";
const warnings = [];
const origWarn = console.warn;
console.warn = (...args) => warnings.push(args.map(String).join(" "));

async function post(body) {
  const res = await fetch(`${url}/meta?threadId=${threadId}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function run(agent) {
  const events = [];
  try {
    await agent.runAgent({}, { onEvent: ({ event }) => { events.push(event); } });
    return { ok: true, eventTypes: events.map((e) => e.type), events };
  } catch (err) {
    return { ok: false, error: String(err?.message ?? err), eventTypes: events.map((e) => e.type), events };
  }
}

const batch = [
  { type: "META", id: "fb-1", metaType: "thumbs_up", payload: { messageId: "a-1", userId: "u-7" } },
  { type: "CUSTOM", name: "meta", value: { type: "META", id: "fb-2", metaType: "note", payload: { text: "Cite the source, please." } } },
];
const out = {};
out.intake = await post(batch);
out.again = await post(batch);

const agent = new HttpAgent({ url, threadId, initialMessages: [{ id: "u-1", role: "user", content: "weather" }] });
out.run = await run(agent);
out.run.messages = agent.messages;

const res = await fetch(`${url}/meta?threadId=${threadId}&metaType=thumbs_up`);
out.query = { status: res.status, body: await res.json() };

const native = new HttpAgent({ url: nativeURL, threadId, initialMessages: [{ id: "u-1", role: "user", content: "weather" }] });
out.native = await run(native);

console.warn = origWarn;
out.warnings = warnings;
console.log(JSON.stringify(out));

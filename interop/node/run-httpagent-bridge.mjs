// Drives @ag-ui/client's HttpAgent through the A2A bridge and prints what
// each step saw, as one JSON object on stdout, for interop/bridge_test.go:
//   weather: a run with text, reasoning and a tool call;
//   ask:     a run that ends with an interrupt, and the run that resumes it
//            (HttpAgent checks that the resume covers every pending one);
//   slow:    a run aborted once it has started (the bridge cancels the task).
//
//   node run-httpagent-bridge.mjs URL
import { HttpAgent } from "@ag-ui/client";

const [url] = process.argv.slice(2);
const warnings = [];
const origWarn = console.warn;
console.warn = (...args) => warnings.push(args.map(String).join(" "));

async function run(agent, params = {}, onEvent) {
  const events = [];
  let outcome;
  try {
    await agent.runAgent(params, {
      onEvent: ({ event }) => { events.push(event); onEvent?.(event); },
      onRunFinishedEvent: ({ event }) => { outcome = event.outcome; },
    });
    return { ok: true, eventTypes: events.map((e) => e.type), events, outcome: outcome ?? null };
  } catch (err) {
    return { ok: false, error: String(err?.message ?? err), eventTypes: events.map((e) => e.type), events };
  }
}

const out = {};
const weather = new HttpAgent({ url, threadId: "thread-weather", initialMessages: [{ id: "u-1", role: "user", content: "weather" }] });
out.weather = await run(weather);
out.weather.messages = weather.messages;
out.weather.state = weather.state;

const ask = new HttpAgent({ url, threadId: "thread-ask", initialMessages: [{ id: "u-2", role: "user", content: "ask" }] });
out.ask = await run(ask);
const interrupts = out.ask.outcome?.interrupts ?? [];
out.resume = await run(ask, { resume: interrupts.map((i) => ({ interruptId: i.id, status: "resolved", payload: "blue" })) });
out.resume.messages = ask.messages;

const slow = new HttpAgent({ url, threadId: "thread-slow", initialMessages: [{ id: "u-3", role: "user", content: "slow" }] });
out.slow = await run(slow, {}, (event) => { if (event.type === "STATE_SNAPSHOT") slow.abortRun(); });

console.warn = origWarn;
out.warnings = warnings;
console.log(JSON.stringify(out));

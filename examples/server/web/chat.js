// The chat page: @ag-ui/client's HttpAgent (bundled in agui-client.js) runs
// the agent at /agui and this file draws what streams back. Feedback goes to
// /agui/meta as META events. A bearer token, when the server wants one, is
// read from the page's fragment: /#token=…
import { HttpAgent } from "./agui-client.js";

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const headers = token ? { Authorization: `Bearer ${token}` } : {};
const threadId = crypto.randomUUID();
const agent = new HttpAgent({ url: "/agui", threadId, headers });
document.body.dataset.threadId = threadId; // for tests and for finding the thread's feedback

let runId = null;
let pendingInterrupts = [];
const bubbles = new Map(); // message or tool call id → its text element

function add(kind, label) {
  const li = document.createElement("li");
  li.className = kind;
  if (label) {
    const span = document.createElement("span");
    span.className = "label";
    span.textContent = label;
    li.append(span);
  }
  $("messages").append(li);
  return li;
}

function textIn(li, tag = "div") {
  const el = document.createElement(tag);
  li.append(el);
  return el;
}

function setStatus(text, isError = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", isError);
}

// Feedback under an assistant message: thumbs up or down (Helpful, Not
// helpful), and a note.
function feedbackFor(li, messageId) {
  const bar = document.createElement("div");
  bar.className = "feedback";
  const vote = (metaType, label) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.setAttribute("aria-pressed", "false");
    b.dataset.meta = metaType;
    b.addEventListener("click", async () => {
      if (await sendMeta({ type: "META", metaType, payload: { messageId } })) b.setAttribute("aria-pressed", "true");
    });
    return b;
  };
  const note = document.createElement("input");
  note.setAttribute("aria-label", "Note on this answer");
  note.placeholder = "Add a note";
  const save = document.createElement("button");
  save.type = "button";
  save.textContent = "Save note";
  save.addEventListener("click", async () => {
    const text = note.value.trim();
    if (text && (await sendMeta({ type: "META", metaType: "note", payload: { text, relatedId: messageId } }))) note.value = "";
  });
  bar.append(vote("thumbs_up", "Helpful"), vote("thumbs_down", "Not helpful"), note, save);
  li.append(bar);
}

async function sendMeta(event) {
  const query = new URLSearchParams({ threadId, ...(runId ? { runId } : {}) });
  const res = await fetch(`/agui/meta?${query}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(event),
  });
  if (!res.ok) {
    setStatus(`Feedback refused: ${(await res.json()).error ?? res.status}`, true);
    return false;
  }
  const { events } = await res.json();
  showFeedback(events[0].event, events[0].seq);
  setStatus("Thanks for the feedback.");
  return true;
}

const shownFeedback = new Set();
function showFeedback(meta, seq) {
  const key = meta.id ?? seq;
  if (shownFeedback.has(key)) return;
  shownFeedback.add(key);
  const li = document.createElement("li");
  li.textContent = meta.metaType + (meta.payload?.text ? `: ${meta.payload.text}` : "");
  $("feedback").append(li);
}

function onEvent({ event }) {
  switch (event.type) {
    case "RUN_STARTED":
      runId = event.runId;
      break;
    case "TEXT_MESSAGE_START": {
      const li = add("assistant", "Agent");
      li.dataset.messageId = event.messageId;
      bubbles.set(event.messageId, textIn(li, "p"));
      break;
    }
    case "TEXT_MESSAGE_CONTENT":
      bubbles.get(event.messageId).textContent += event.delta;
      break;
    case "TEXT_MESSAGE_END":
      feedbackFor(bubbles.get(event.messageId).parentElement, event.messageId);
      break;
    case "REASONING_MESSAGE_START":
      bubbles.set(event.messageId, textIn(add("reasoning", "Thinking")));
      break;
    case "REASONING_MESSAGE_CONTENT":
      bubbles.get(event.messageId).textContent += event.delta;
      break;
    case "TOOL_CALL_START": {
      const li = add("tool", `Tool: ${event.toolCallName}`);
      li.dataset.toolCallId = event.toolCallId;
      bubbles.set(event.toolCallId, textIn(li, "pre"));
      break;
    }
    case "TOOL_CALL_ARGS":
      bubbles.get(event.toolCallId).textContent += event.delta;
      break;
    case "TOOL_CALL_RESULT": {
      const result = textIn(bubbles.get(event.toolCallId).parentElement, "pre");
      result.className = "result";
      result.textContent = `→ ${typeof event.content === "string" ? event.content : JSON.stringify(event.content)}`;
      break;
    }
    case "ACTIVITY_SNAPSHOT":
      // Drawn here, filled in by onMessagesChanged (snapshots and deltas).
      if (!bubbles.has(event.messageId)) bubbles.set(event.messageId, textIn(add("activity", `Activity: ${event.activityType}`), "pre"));
      break;
    case "CUSTOM":
      if (event.name === "meta") showFeedback(event.value);
      break;
    case "RUN_FINISHED":
      pendingInterrupts = event.outcome?.type === "interrupt" ? event.outcome.interrupts : [];
      break;
    case "RUN_ERROR":
      setStatus(`The run failed: ${event.message}`, true);
      break;
  }
}

function onStateChanged({ state }) {
  $("state").textContent = JSON.stringify(state, null, 2);
}

function onMessagesChanged({ messages }) {
  for (const m of messages) {
    if (m.role === "activity" && bubbles.has(m.id)) bubbles.get(m.id).textContent = JSON.stringify(m.content, null, 1);
  }
}

async function run(params = {}) {
  $("send").disabled = true;
  $("interrupt").hidden = true;
  setStatus("Working…");
  try {
    await agent.runAgent(params, { onEvent, onStateChanged, onMessagesChanged });
    setStatus(pendingInterrupts.length ? "The agent is waiting for your answer." : "Done.");
  } catch (err) {
    setStatus(`The run failed: ${err?.message ?? err}`, true);
  } finally {
    $("send").disabled = false;
  }
  if (pendingInterrupts.length) {
    $("interrupt-question").textContent = pendingInterrupts[0].message ?? pendingInterrupts[0].reason;
    $("interrupt").hidden = false;
    $("approve").focus();
  }
}

function answer(approved) {
  const resume = pendingInterrupts.map((i) => ({ interruptId: i.id, status: "resolved", payload: approved }));
  pendingInterrupts = [];
  run({ resume });
}

$("approve").addEventListener("click", () => answer(true));
$("reject").addEventListener("click", () => answer(false));
$("composer").addEventListener("submit", (e) => {
  e.preventDefault();
  const content = $("input").value.trim();
  if (!content) return;
  $("input").value = "";
  const id = crypto.randomUUID();
  agent.addMessage({ id, role: "user", content });
  textIn(add("user", "You"), "p").textContent = content;
  // A new message instead of an answer leaves the open interrupts: say so.
  const resume = pendingInterrupts.map((i) => ({ interruptId: i.id, status: "cancelled" }));
  pendingInterrupts = [];
  run(resume.length ? { resume } : {});
});

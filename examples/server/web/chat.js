// The chat page: @ag-ui/client's HttpAgent (bundled in agui-client.js) runs
// the agent at /agui and this file draws what streams back. Its subclass
// ResumingHttpAgent (resuming-agent.js) resumes a run whose stream drops,
// on a server with resumable runs (scaffold --resumable): the events go on,
// and the reply in the same bubble. Feedback goes to
// /agui/meta as META events. A bearer token, when the server wants one, is
// read from the page's fragment: /#token=…
import { ResumingHttpAgent } from "./resuming-agent.js";

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const headers = token ? { Authorization: `Bearer ${token}` } : {};
const threadId = crypto.randomUUID();
const agent = new ResumingHttpAgent({ url: "/agui", threadId, headers });
document.body.dataset.threadId = threadId; // for tests and for finding the thread's feedback
let reconnecting = false;
agent.onReconnect = (n) => {
  reconnecting = true;
  document.body.dataset.reconnects = Number(document.body.dataset.reconnects ?? 0) + 1; // for tests
  setStatus(`The connection dropped: reconnecting (${n})…`);
};

let runId = null; // the run streaming now
let runFailed = false;
let pendingInterrupts = [];
let answering = null; // the interrupts a run answers and what became of them, told once it starts
const bubbles = new Map(); // message or tool call id → its text element

// What to say when the server answers 401: the fragment is the only place
// this page looks for a token.
const tokenHint = token
  ? "the server refused the token in this page's address (#token=…): check it against the server's --token"
  : "the server wants a bearer token: open this page as /#token=YOUR_TOKEN, with the server's --token";

// problem says why the server refused a request: a 401 gets the token
// hint; otherwise the server's message ({"error":{"message":…}}).
function problem(status, body) {
  if (status === 401) return tokenHint;
  return body?.error?.message ?? `HTTP ${status}`;
}

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

// Feedback under an assistant message, filed under the run that wrote it:
// Helpful or Not helpful (one choice, which can be changed), and a note.
// A control is unavailable while what it sent is on its way.
function feedbackFor(li, messageId, messageRunId) {
  const form = document.createElement("form");
  form.className = "feedback";
  form.setAttribute("aria-label", "Feedback on this answer");
  const busy = (controls, on) => controls.forEach((c) => c.setAttribute("aria-disabled", String(on)));

  const votes = [];
  const vote = (metaType, label) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.setAttribute("aria-pressed", "false");
    b.dataset.meta = metaType;
    b.addEventListener("click", async () => {
      if (b.getAttribute("aria-pressed") === "true" || b.getAttribute("aria-disabled") === "true") return;
      busy(votes, true);
      const sent = await sendMeta({ type: "META", metaType, payload: { messageId } }, messageRunId);
      busy(votes, false);
      if (sent) votes.forEach((v) => v.setAttribute("aria-pressed", String(v === b)));
    });
    votes.push(b);
    return b;
  };

  const note = document.createElement("input");
  note.name = "note";
  note.setAttribute("aria-label", "Note on this answer");
  note.placeholder = "Add a note";
  const save = document.createElement("button");
  save.type = "submit";
  save.textContent = "Save note";
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = note.value.trim();
    if (!text || save.getAttribute("aria-disabled") === "true") return;
    busy([save], true);
    if (await sendMeta({ type: "META", metaType: "note", payload: { text, relatedId: messageId } }, messageRunId)) note.value = "";
    busy([save], false);
  });
  form.append(vote("thumbs_up", "Helpful"), vote("thumbs_down", "Not helpful"), note, save);
  li.append(form);
}

// sendMeta posts a META event about a run of the thread, says on the page
// how that went, and returns whether the server took it.
async function sendMeta(event, about) {
  const query = new URLSearchParams({ threadId, ...(about ? { runId: about } : {}) });
  let res, body;
  try {
    res = await fetch(`/agui/meta?${query}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(event),
    });
    body = await res.json().catch(() => null); // a proxy's error page is no JSON
  } catch (err) {
    setStatus(`Feedback not sent: ${err?.message ?? err}`, true);
    return false;
  }
  if (!res.ok) {
    setStatus(`Feedback refused: ${problem(res.status, body)}`, true);
    return false;
  }
  const stored = body?.events?.[0];
  if (stored) showFeedback(stored.event, stored.seq);
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
  $("feedback-sent").hidden = false;
}

// follow keeps the newest of the transcript, and the composer below it, in
// view as a run draws.
function follow() {
  $("composer").scrollIntoView({ block: "end" });
}

function onEvent({ event }) {
  if (reconnecting) {
    reconnecting = false; // the run goes on where it was
    setStatus("Working…");
  }
  draw(event);
  follow();
}

function draw(event) {
  switch (event.type) {
    case "RUN_STARTED":
      runId = event.runId;
      if (answering) settle(answering.interrupts, answering.outcome);
      answering = null;
      break;
    case "MESSAGES_SNAPSHOT":
      // A run joined rather than followed from its start (its stream was
      // cut before the first byte came): what it has said so far is here.
      for (const m of event.messages) drawMessage(m);
      break;
    case "TEXT_MESSAGE_START":
      if (!bubbles.has(event.messageId)) assistantBubble(event.messageId); // else drawn from a snapshot, and going on
      break;
    case "TEXT_MESSAGE_CONTENT":
      bubbles.get(event.messageId).textContent += event.delta;
      break;
    case "TEXT_MESSAGE_END": {
      const li = bubbles.get(event.messageId).parentElement;
      feedbackFor(li, event.messageId, li.dataset.runId);
      break;
    }
    case "REASONING_MESSAGE_START":
      if (!bubbles.has(event.messageId)) bubbles.set(event.messageId, textIn(add("reasoning", "Thinking")));
      break;
    case "REASONING_MESSAGE_CONTENT":
      bubbles.get(event.messageId).textContent += event.delta;
      break;
    case "TOOL_CALL_START":
      if (!bubbles.has(event.toolCallId)) toolBubble(event.toolCallId, event.toolCallName);
      break;
    case "TOOL_CALL_ARGS":
      bubbles.get(event.toolCallId).textContent += event.delta;
      break;
    case "TOOL_CALL_RESULT":
      showResult(event.toolCallId, event.content);
      break;
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
      runFailed = true;
      setStatus(`The run failed: ${event.message}`, true);
      break;
  }
}

function assistantBubble(messageId) {
  const li = add("assistant", "Agent");
  li.dataset.messageId = messageId;
  li.dataset.runId = runId;
  return bubbles.set(messageId, textIn(li, "p")).get(messageId);
}

function toolBubble(toolCallId, name) {
  const li = add("tool", `Tool: ${name}`);
  li.dataset.toolCallId = toolCallId;
  return bubbles.set(toolCallId, textIn(li, "pre")).get(toolCallId);
}

function showResult(toolCallId, content) {
  const li = bubbles.get(toolCallId)?.parentElement;
  if (!li || li.querySelector(".result")) return;
  const result = textIn(li, "pre");
  result.className = "result";
  result.textContent = `→ ${typeof content === "string" ? content : JSON.stringify(content)}`;
}

// drawMessage draws a message of a snapshot that the page has not drawn:
// the agent's words, reasoning and tool calls so far, and tool results.
function drawMessage(m) {
  if (m.role === "assistant") {
    if (m.content && !bubbles.has(m.id)) assistantBubble(m.id).textContent = m.content;
    for (const call of m.toolCalls ?? []) {
      if (!bubbles.has(call.id)) toolBubble(call.id, call.function.name).textContent = call.function.arguments;
    }
  } else if (m.role === "reasoning" && !bubbles.has(m.id)) {
    bubbles.set(m.id, textIn(add("reasoning", "Thinking"))).get(m.id).textContent = m.content;
  } else if (m.role === "tool") {
    showResult(m.toolCallId, m.content);
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

// run runs the agent; answered are the interrupts params.resume answers,
// and outcome what became of them: written to the transcript once the run
// starts, and the interrupts asked again if the server refuses it before.
async function run(params = {}, answered = [], outcome = "") {
  answering = answered.length ? { interrupts: answered, outcome } : null;
  $("send").disabled = true;
  $("interrupt").hidden = true;
  runFailed = false;
  runId = null;
  setStatus("Working…");
  try {
    await agent.runAgent(params, { onEvent, onStateChanged, onMessagesChanged });
    if (!runFailed) setStatus(pendingInterrupts.length ? "The agent is waiting for your answer." : "Done.");
  } catch (err) {
    // A refused request is an Error with the response's status and body.
    setStatus(`The run failed: ${err?.status ? problem(err.status, err.payload) : (err?.message ?? err)}`, true);
    if (runId === null) pendingInterrupts = answered; // still open on the server: ask again
  } finally {
    $("send").disabled = false;
  }
  if (pendingInterrupts.length) {
    $("interrupt-question").textContent = question(pendingInterrupts[0]);
    $("interrupt").hidden = false;
    $("approve").focus();
  }
  follow();
}

const question = (interrupt) => interrupt.message ?? interrupt.reason;

// settle records in the transcript what the agent asked and what became of
// it, since the box that asked goes away.
function settle(interrupts, outcome) {
  for (const i of interrupts) {
    const li = add("interrupt", "The agent asked");
    textIn(li, "p").textContent = question(i);
    textIn(li, "p").textContent = outcome;
  }
}

function answer(approved) {
  const answered = pendingInterrupts;
  const resume = answered.map((i) => ({ interruptId: i.id, status: "resolved", payload: approved }));
  pendingInterrupts = [];
  // The box with the focused button hides: the focus goes where the next
  // thing to do is.
  $("input").focus();
  run({ resume }, answered, `You answered: ${approved ? "Yes" : "No"}`);
}

$("approve").addEventListener("click", () => answer(true));
$("reject").addEventListener("click", () => answer(false));
$("composer").addEventListener("submit", (e) => {
  e.preventDefault();
  const content = $("input").value.trim();
  if (!content) return;
  $("input").value = "";
  // A new message instead of an answer leaves the open interrupts: say so.
  const unanswered = pendingInterrupts;
  const resume = unanswered.map((i) => ({ interruptId: i.id, status: "cancelled" }));
  pendingInterrupts = [];
  const id = crypto.randomUUID();
  agent.addMessage({ id, role: "user", content });
  textIn(add("user", "You"), "p").textContent = content;
  run(resume.length ? { resume } : {}, unanswered, "Left unanswered: you sent a new message.");
});

#!/usr/bin/env node
// Build AG-UI 1.0 events covering all 31 event types -- each as a "maximal"
// variant (every optional field set) and a "minimal" one (required fields
// only) -- check them against the official JSON Schema, and write them to
// stdout encoded by @ag-ui/encoder@1.0.0.
//
// Usage: node encode-events.mjs [--format=sse|proto|json] [--edge-cases]
//   sse   (default) the concatenated text/event-stream bytes from EventEncoder
//   proto the concatenated length-prefixed protobuf frames from EventEncoder
//         (4-byte big-endian length + @ag-ui/proto encode(event))
//   json  one JSON line per event: JSON.stringify of the JS object as built
//   --edge-cases  append extra events after the 62 (null/false/0 payloads,
//                 the other outcome arms, extreme integers, ...)
//
// The order is the same for every format: for each type in the schema's
// EventType enum, its maximal then its minimal variant (then edge cases).
// Any schema violation or encoder warning fails the run (exit 1, no output).

import { isDeepStrictEqual } from "node:util";
import { AGUI_MEDIA_TYPE, EventEncoder } from "@ag-ui/encoder";
import {
  canonicalize,
  createAjv,
  defFields,
  defValidator,
  eventTypeToDef,
  isAttributable,
  loadAguiSchema,
} from "./agui-schema.mjs";

// Fields the 1.1 schema has but AG-UI 1.0 (and so @ag-ui/core, @ag-ui/proto
// 1.0.0) does not. The maximal variants leave them out on purpose.
const NOT_IN_1_0 = new Set(["encryptedValueType"]);

// ---------------------------------------------------------------------------
// Reusable values

const TS = 1767225600123; // 2026-01-01T00:00:00.123Z, in milliseconds

// A string that exercises JSON escaping: quotes, backslash, control
// characters, HTML-sensitive characters, non-ASCII and a non-BMP character.
const TRICKY = 'He said "hi" \\ path/to <b>&amp;</b>\n\ttab \u0001 café 日本 😀';

const rawEvent = (n) => ({
  provider: "example-llm",
  id: `evt_${n}`,
  payload: { choices: [{ index: 0, delta: "x" }], flags: [true, false, null], score: 0.5 },
});

const metadata = (n) => ({
  "ag-ui": { seq: n },
  tenant: "acme",
  nothing: null,
  count: 3,
  ratio: -2.25,
  tags: ["a", "b"],
  nested: { deep: { ok: true } },
});

const SUBAGENT = "subrun_1";

const dataSource = { type: "data", value: "aGVsbG8gd29ybGQ=", mimeType: "image/png" };
const urlSource = { type: "url", value: "https://example.com/a.mp3", mimeType: "audio/mpeg" };
const fileSource = { type: "file", value: "file-abc123", provider: "openai", mimeType: "video/mp4" };

// One content part of every kind, every optional field set, every source kind
// used. Part metadata is "any JSON but null", so it varies in type.
const allContentParts = (prefix) => [
  { type: "text", id: `${prefix}_text`, text: TRICKY, metadata: { lang: "en" } },
  { type: "image", id: `${prefix}_image`, source: dataSource, metadata: { width: 640, height: 480 } },
  { type: "audio", id: `${prefix}_audio`, source: urlSource, metadata: "voice-memo" },
  { type: "video", id: `${prefix}_video`, source: fileSource, metadata: [1, 2, 3] },
  {
    type: "document",
    id: `${prefix}_doc`,
    source: { type: "url", value: "https://example.com/spec.pdf" },
    metadata: 42,
  },
];

const toolCallMax = {
  id: "call_1",
  type: "function",
  function: { name: "get_weather", arguments: '{"city":"Paris","units":"metric"}' },
  encryptedValue: "enc-toolcall-1",
  metadata: { approved: true },
};
const toolCallMin = {
  id: "call_2",
  type: "function",
  function: { name: "noop", arguments: "" },
};

// One message of every role, every optional field set.
const allMessages = () => [
  {
    id: "m_dev",
    role: "developer",
    subagentRunId: SUBAGENT,
    name: "dev",
    encryptedValue: "enc-dev",
    metadata: { source: "config" },
    content: "Be concise.",
  },
  {
    id: "m_sys",
    role: "system",
    subagentRunId: SUBAGENT,
    name: "sys",
    encryptedValue: "enc-sys",
    metadata: { source: "runtime" },
    content: "You are a helpful assistant.",
  },
  {
    id: "m_user",
    role: "user",
    subagentRunId: SUBAGENT,
    name: "Ada",
    encryptedValue: "enc-user",
    metadata: { client: "web" },
    content: allContentParts("u"),
  },
  {
    id: "m_asst",
    role: "assistant",
    subagentRunId: SUBAGENT,
    name: "helper",
    encryptedValue: "enc-asst",
    metadata: { model: "m-1" },
    content: "Let me check the weather.",
    toolCalls: [toolCallMax, toolCallMin],
  },
  {
    id: "m_tool",
    role: "tool",
    subagentRunId: SUBAGENT,
    content: allContentParts("t"),
    toolCallId: "call_1",
    error: "partial result: upstream timed out",
    encryptedValue: "enc-tool",
    metadata: { cached: false },
  },
  {
    id: "m_act",
    role: "activity",
    subagentRunId: SUBAGENT,
    activityType: "plan",
    content: { steps: [{ title: "search", done: true }], progress: 0.5, note: null },
    metadata: { widget: "checklist" },
  },
  {
    id: "m_rsn",
    role: "reasoning",
    subagentRunId: SUBAGENT,
    content: "Thinking about the weather...",
    encryptedValue: "enc-rsn",
    metadata: { effort: "low" },
  },
];

// Every RFC 6902 operation, with varied value types (null included: it is a
// legitimate value to add/replace/test) and escaped pointers (~0 = "~", ~1 = "/").
const allPatchOps = () => [
  { op: "add", path: "/items/-", value: { id: 1, name: "new" } },
  { op: "add", path: "/a~1b/c~0d", value: null },
  { op: "remove", path: "/obsolete" },
  { op: "replace", path: "/count", value: 42 },
  { op: "move", from: "/old", path: "/new" },
  { op: "copy", from: "/template", path: "/copy" },
  { op: "test", path: "/flag", value: false },
  { op: "replace", path: "", value: ["whole", "document"] },
];

const usageFull = {
  provider: "openai",
  model: "gpt-x",
  inputTokens: 1200,
  outputTokens: 340,
  totalTokens: 1540,
  reasoningTokens: 100,
  cachedInputTokens: 800,
  cacheWriteInputTokens: 200,
};
const usagePartial = { provider: "anthropic", inputTokens: 10 };

const interruptMax = {
  subagentRunId: SUBAGENT,
  id: "int_1",
  reason: "tool_approval",
  message: "Approve sending the email?",
  toolCallId: "call_1",
  responseSchema: {
    type: "object",
    properties: { approved: { type: "boolean" } },
    required: ["approved"],
  },
  expiresAt: "2026-01-02T00:00:00Z",
  metadata: { priority: "high" },
};
const interruptMin = { id: "int_2", reason: "missing_value" };

const runAgentInputMax = () => ({
  threadId: "thread_1",
  runId: "run_1",
  protocolVersion: "1.0",
  parentRunId: "run_0",
  state: { counter: 1, items: ["x"], nested: { flag: true } },
  messages: allMessages(),
  tools: [
    {
      name: "get_weather",
      description: "Look up the weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      },
      metadata: { dangerous: false },
    },
    { name: "noop", description: "Does nothing" },
  ],
  context: [{ description: "user locale", value: "fr-FR" }],
  forwardedProps: { experiment: "b", temperature: 0.2 },
  resume: [
    { interruptId: "int_0", status: "resolved", payload: { approved: true }, metadata: { by: "ada" } },
    { interruptId: "int_9", status: "cancelled" },
  ],
});

// ---------------------------------------------------------------------------
// The events. For each type: the type-specific fields of the maximal variant
// and of the minimal variant. The base fields (timestamp, rawEvent, metadata)
// and, where the definition allows it, subagentRunId are added to every
// maximal variant by buildEvents().

const FIXTURES = {
  TEXT_MESSAGE_START: {
    max: { messageId: "msg_1", role: "user", name: "Ada" },
    min: { messageId: "msg_1" },
  },
  TEXT_MESSAGE_CONTENT: {
    max: { messageId: "msg_1", delta: TRICKY },
    min: { messageId: "msg_1", delta: "Hello" },
  },
  TEXT_MESSAGE_END: {
    max: { messageId: "msg_1" },
    min: { messageId: "msg_1" },
  },
  TEXT_MESSAGE_CHUNK: {
    max: { messageId: "msg_2", role: "assistant", delta: "chunk text", name: "helper" },
    min: {},
  },
  TOOL_CALL_START: {
    max: { toolCallId: "call_1", toolCallName: "get_weather", parentMessageId: "msg_1" },
    min: { toolCallId: "call_1", toolCallName: "get_weather" },
  },
  TOOL_CALL_ARGS: {
    max: { toolCallId: "call_1", delta: '{"city":"Par' },
    min: { toolCallId: "call_1", delta: 'is"}' },
  },
  TOOL_CALL_END: {
    max: { toolCallId: "call_1" },
    min: { toolCallId: "call_1" },
  },
  TOOL_CALL_CHUNK: {
    max: { toolCallId: "call_3", toolCallName: "search", parentMessageId: "msg_2", delta: '{"q":"x"}' },
    min: {},
  },
  TOOL_CALL_RESULT: {
    max: { messageId: "msg_tool_1", toolCallId: "call_1", content: allContentParts("r"), role: "tool" },
    min: { messageId: "msg_tool_2", toolCallId: "call_1", content: "22°C, sunny" },
  },
  STATE_SNAPSHOT: {
    max: {
      snapshot: {
        counter: 1,
        ratio: 0.25,
        name: TRICKY,
        list: [1, "two", null, false, { three: 3 }],
        empty: {},
        none: null,
      },
    },
    min: { snapshot: { counter: 0 } },
  },
  STATE_DELTA: {
    max: { delta: allPatchOps() },
    min: { delta: [{ op: "replace", path: "/counter", value: 1 }] },
  },
  MESSAGES_SNAPSHOT: {
    max: { messages: allMessages() },
    min: { messages: [] },
  },
  ACTIVITY_SNAPSHOT: {
    max: {
      messageId: "act_1",
      activityType: "plan",
      content: { steps: [{ title: "search", done: false }], progress: 0 },
      replace: false,
    },
    min: { messageId: "act_1", activityType: "plan", content: { steps: [] } },
  },
  ACTIVITY_DELTA: {
    max: {
      messageId: "act_1",
      activityType: "plan",
      patch: [
        { op: "add", path: "/steps/-", value: { title: "summarise", done: false } },
        { op: "replace", path: "/steps/0/done", value: true },
        { op: "remove", path: "/steps/1" },
        { op: "test", path: "/progress", value: 0 },
        { op: "copy", from: "/steps/0", path: "/last" },
        { op: "move", from: "/last", path: "/first" },
      ],
    },
    min: { messageId: "act_1", activityType: "plan", patch: [] },
  },
  RAW: {
    max: { event: { object: "chat.completion.chunk", choices: [{ delta: { content: "Hi" } }] }, source: "openai" },
    min: { event: { anything: true } },
  },
  CUSTOM: {
    max: { name: "app.highlight", value: { range: [3, 9], color: "yellow" } },
    min: { name: "app.ping", value: "pong" },
  },
  RUN_STARTED: {
    max: {
      threadId: "thread_1",
      runId: "run_1",
      protocolVersion: "1.0",
      parentRunId: "run_0",
      input: runAgentInputMax(),
    },
    min: { threadId: "thread_1", runId: "run_1" },
  },
  RUN_FINISHED: {
    max: {
      threadId: "thread_1",
      runId: "run_1",
      result: { answer: 42, text: TRICKY },
      outcome: { type: "interrupt", interrupts: [interruptMax, interruptMin] },
      usage: [usageFull, usagePartial],
    },
    min: { threadId: "thread_1", runId: "run_1" },
  },
  RUN_ERROR: {
    max: { message: "Upstream model failed", code: "UPSTREAM_500", usage: [usageFull] },
    min: { message: "boom" },
  },
  STEP_STARTED: {
    max: { stepName: "plan" },
    min: { stepName: "plan" },
  },
  STEP_FINISHED: {
    max: { stepName: "plan" },
    min: { stepName: "plan" },
  },
  REASONING_START: {
    max: { messageId: "rsn_1" },
    min: { messageId: "rsn_1" },
  },
  REASONING_MESSAGE_START: {
    max: { messageId: "rsn_msg_1", role: "reasoning" },
    min: { messageId: "rsn_msg_1", role: "reasoning" },
  },
  REASONING_MESSAGE_CONTENT: {
    max: { messageId: "rsn_msg_1", delta: "First, consider..." },
    min: { messageId: "rsn_msg_1", delta: "" },
  },
  REASONING_MESSAGE_END: {
    max: { messageId: "rsn_msg_1" },
    min: { messageId: "rsn_msg_1" },
  },
  REASONING_MESSAGE_CHUNK: {
    max: { messageId: "rsn_msg_2", delta: "chunked thought" },
    min: {},
  },
  REASONING_END: {
    max: { messageId: "rsn_1" },
    min: { messageId: "rsn_1" },
  },
  REASONING_ENCRYPTED_VALUE: {
    max: { subtype: "tool-call", entityId: "call_1", encryptedValue: "gAAAAABencrypted==" },
    min: { subtype: "message", entityId: "msg_1", encryptedValue: "opaque" },
  },
  SUBAGENT_STARTED: {
    max: {
      subagentRunId: "subrun_2",
      name: "researcher",
      description: "Finds sources",
      parentSubagentRunId: SUBAGENT,
      parentToolCallId: "call_1",
      parentMessageId: "msg_1",
    },
    min: { subagentRunId: "subrun_2", name: "researcher" },
  },
  SUBAGENT_FINISHED: {
    max: {
      subagentRunId: "subrun_2",
      result: ["source-1", "source-2"],
      outcome: { type: "suspended", interruptIds: ["int_1", "int_2"] },
    },
    min: { subagentRunId: "subrun_2" },
  },
  SUBAGENT_ERROR: {
    max: { subagentRunId: "subrun_2", message: "Subagent crashed", code: "SUBAGENT_CRASH" },
    min: { subagentRunId: "subrun_2", message: "failed" },
  },
};

// Extra events for --edge-cases: values a typed decoder easily gets wrong.
const EDGE_CASES = [
  ["RUN_FINISHED", "success outcome with pendingToolCallIds", {
    threadId: "t", runId: "r", outcome: { type: "success", pendingToolCallIds: ["call_1", "call_2"] },
  }],
  ["RUN_FINISHED", "bare success outcome, result false", {
    threadId: "t", runId: "r", result: false, outcome: { type: "success" },
  }],
  ["RUN_FINISHED", "cancelled outcome, result 0", {
    threadId: "t", runId: "r", result: 0, outcome: { type: "cancelled" },
  }],
  ["SUBAGENT_FINISHED", "success outcome, result empty string", {
    subagentRunId: "s", result: "", outcome: { type: "success" },
  }],
  ["SUBAGENT_FINISHED", "suspended outcome without interruptIds", {
    subagentRunId: "s", outcome: { type: "suspended" },
  }],
  ["RAW", "event null", { event: null }],
  ["CUSTOM", "value null", { name: "n", value: null }],
  ["CUSTOM", "value false", { name: "n", value: false }],
  ["CUSTOM", "value 0", { name: "n", value: 0 }],
  ["CUSTOM", "value empty string", { name: "n", value: "" }],
  ["CUSTOM", "value empty array", { name: "n", value: [] }],
  ["STATE_SNAPSHOT", "snapshot null", { snapshot: null }],
  ["STATE_SNAPSHOT", "snapshot array", { snapshot: [1, 2] }],
  ["STATE_SNAPSHOT", "snapshot string", { snapshot: "s" }],
  ["STATE_DELTA", "falsy values", {
    delta: [
      { op: "add", path: "/a", value: 0 },
      { op: "add", path: "/b", value: "" },
      { op: "replace", path: "/c", value: false },
      { op: "test", path: "/d", value: null },
      { op: "add", path: "/e", value: {} },
    ],
  }],
  ["TEXT_MESSAGE_CONTENT", "empty delta, timestamp 0, empty metadata", {
    timestamp: 0, metadata: {}, messageId: "m", delta: "",
  }],
  ["TEXT_MESSAGE_END", "extreme timestamp, rawEvent false", {
    timestamp: 9007199254740991, rawEvent: false, messageId: "m",
  }],
  ["TEXT_MESSAGE_END", "negative timestamp, rawEvent 0", {
    timestamp: -9007199254740991, rawEvent: 0, messageId: "m",
  }],
  ["TOOL_CALL_RESULT", "empty content parts array", { messageId: "m", toolCallId: "c", content: [] }],
  ["TOOL_CALL_RESULT", "empty string content", { messageId: "m", toolCallId: "c", content: "" }],
  ["ACTIVITY_SNAPSHOT", "empty content, replace true", {
    messageId: "a", activityType: "t", content: {}, replace: true,
  }],
  ["MESSAGES_SNAPSHOT", "minimal message of every role", {
    messages: [
      { id: "1", role: "developer", content: "" },
      { id: "2", role: "system", content: "s" },
      { id: "3", role: "assistant" },
      { id: "4", role: "user", content: [] },
      { id: "5", role: "tool", content: "", toolCallId: "c" },
      { id: "6", role: "activity", activityType: "t", content: {} },
      { id: "7", role: "reasoning", content: "" },
    ],
  }],
  ["RUN_STARTED", "minimal input", {
    threadId: "t", runId: "r", input: { threadId: "t", runId: "r", messages: [] },
  }],
  ["RUN_ERROR", "usage with zero and max counts", {
    message: "m",
    usage: [{ inputTokens: 0, outputTokens: 9007199254740991 }, {}],
  }],
];

// ---------------------------------------------------------------------------

function buildEvents(schema, withEdgeCases) {
  const defs = eventTypeToDef(schema);
  const events = [];
  let n = 0;
  for (const [type, def] of defs) {
    const fixture = FIXTURES[type];
    if (!fixture) throw new Error(`no fixture for event type ${type}`);
    n++;
    const maximal = {
      type,
      timestamp: TS + n,
      rawEvent: rawEvent(n),
      metadata: metadata(n),
      ...(isAttributable(schema, def) ? { subagentRunId: SUBAGENT } : {}),
      ...fixture.max,
    };
    events.push({ type, def, variant: "maximal", event: maximal });
    events.push({ type, def, variant: "minimal", event: { type, ...fixture.min } });
  }
  const extra = Object.keys(FIXTURES).filter((t) => !defs.has(t));
  if (extra.length > 0) throw new Error(`fixtures for unknown event types: ${extra.join(", ")}`);

  if (withEdgeCases) {
    for (const [type, note, fields] of EDGE_CASES) {
      const def = defs.get(type);
      events.push({ type, def, variant: `edge: ${note}`, event: { type, ...fields } });
    }
  }
  return events;
}

/** Fail loudly unless every event is valid and the variants are what they claim. */
function check(ajv, schema, events) {
  const anyEvent = defValidator(ajv, schema.$id, "Event");
  const problems = [];

  events.forEach(({ def, variant, event }, i) => {
    const label = `#${i} ${event.type} (${variant})`;
    const validate = defValidator(ajv, schema.$id, def);
    if (!validate(event)) {
      problems.push(`${label}: invalid ${def}: ${ajv.errorsText(validate.errors)}`);
    } else if (!anyEvent(event)) {
      // Valid for its own definition but not for the union (e.g. matches two members).
      problems.push(`${label}: invalid Event: ${ajv.errorsText(anyEvent.errors)}`);
    }

    const { properties, required } = defFields(schema, def);
    const keys = Object.keys(event);
    if (variant === "maximal") {
      const missing = properties.filter((p) => !NOT_IN_1_0.has(p) && !keys.includes(p));
      if (missing.length > 0) problems.push(`${label}: maximal variant lacks ${missing.join(", ")}`);
    } else if (variant === "minimal") {
      const extra = keys.filter((k) => !required.includes(k));
      if (extra.length > 0) problems.push(`${label}: minimal variant has optional ${extra.join(", ")}`);
    }
  });

  if (problems.length > 0) {
    throw new Error(`generated events failed their checks:\n  ${problems.join("\n  ")}`);
  }
}

/** Run fn, turning any console.warn (the encoders warn instead of throwing) into an error. */
function withoutWarnings(label, fn) {
  const original = console.warn;
  const warnings = [];
  console.warn = (...args) => warnings.push(args.map(String).join(" "));
  try {
    return fn();
  } finally {
    console.warn = original;
    if (warnings.length > 0) throw new Error(`${label}: encoder warned: ${warnings.join("; ")}`);
  }
}

function encodeAll(events, format) {
  if (format === "json") {
    return Buffer.from(events.map(({ event }) => JSON.stringify(event) + "\n").join(""), "utf8");
  }
  const accept = format === "proto" ? AGUI_MEDIA_TYPE : "text/event-stream";
  const encoder = new EventEncoder({ accept });
  const expectedType = format === "proto" ? AGUI_MEDIA_TYPE : "text/event-stream";
  if (encoder.getContentType() !== expectedType) {
    throw new Error(`EventEncoder picked ${encoder.getContentType()}, expected ${expectedType}`);
  }
  // encodeBinary gives the bytes a server writes: framed protobuf when
  // protobuf was negotiated, else the UTF-8 of encodeSSE ("data: <json>\n\n").
  const chunks = events.map(({ event, variant }, i) =>
    withoutWarnings(`#${i} ${event.type} (${variant})`, () => encoder.encodeBinary(event)),
  );
  return Buffer.concat(chunks);
}

function parseArgs(argv) {
  const opts = { format: "sse", edgeCases: false };
  for (const arg of argv) {
    if (arg.startsWith("--format=")) opts.format = arg.slice("--format=".length);
    else if (arg === "--edge-cases") opts.edgeCases = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!["sse", "proto", "json"].includes(opts.format)) {
    throw new Error(`--format must be sse, proto or json (got ${opts.format})`);
  }
  return opts;
}

try {
  const opts = parseArgs(process.argv.slice(2));
  const schema = loadAguiSchema();
  const ajv = createAjv();
  ajv.addSchema(schema);
  const events = buildEvents(schema, opts.edgeCases);
  check(ajv, schema, events);
  // Canonical key order: schema declaration order for described objects,
  // sorted keys for free-form JSON (see canonicalize in agui-schema.mjs).
  for (const e of events) {
    const ordered = canonicalize(ajv, schema, e.def, e.event);
    if (!isDeepStrictEqual(ordered, e.event)) throw new Error(`canonicalize changed a ${e.type} value`);
    e.event = ordered;
  }
  process.stdout.write(encodeAll(events, opts.format));
} catch (err) {
  process.stderr.write(`encode-events: ${err?.message ?? err}\n`);
  process.exitCode = 1;
}

// Drives @a2a-js/sdk's client against an AG-UI agent that agui-gen's bridge
// serves over A2A, and prints what it saw as one JSON document, for
// interop/bridge_test.go:
//   weather: a streamed answer (artifact chunks), with reasoning and a tool
//            call as hinted status messages;
//   ask:     the agent's interrupt as input-required, and the follow-up
//            message that answers it on the same task.
//
//   node a2a-client-bridge.mjs BASE_URL BINDING   (BINDING: JSONRPC or HTTP+JSON)
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';

const [base, binding] = process.argv.slice(2);
const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [binding] }));
const client = await factory.createFromUrl(base);
const message = (text, taskId = '') => ({
  messageId: randomUUID(), contextId: '', taskId, role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  metadata: undefined, extensions: [], referenceTaskIds: [],
});

async function stream(msg) {
  const seen = { taskId: '', states: [], artifact: '', lastChunk: false, thinking: '', toolCall: null, toolResult: null, question: '', interrupts: null };
  for await (const ev of client.sendMessageStream({ tenant: '', message: msg, configuration: undefined, metadata: undefined })) {
    const p = ev.payload;
    if (p?.$case === 'task') seen.taskId = p.value.id;
    if (p?.$case === 'statusUpdate') {
      const st = p.value.status;
      seen.states.push(TaskState[st.state]);
      for (const part of st.message?.parts ?? []) {
        const md = part.metadata ?? {};
        if (part.content?.$case === 'text' && md.agui_event_type === 'thinking') seen.thinking += part.content.value;
        else if (part.content?.$case === 'text') seen.question += part.content.value;
        if (part.content?.$case === 'data') {
          const v = part.content.value;
          if (v.type === 'tool-call') seen.toolCall = { id: v.id, name: v.name, arguments: v.arguments, hint: md.agui_tool_name };
          if (v.type === 'tool-result') seen.toolResult = { toolCallId: v.toolCallId, payload: v.payload, isError: md.agui_is_error };
          if (v.type === 'agui.interrupts') seen.interrupts = v.interrupts;
        }
      }
    }
    if (p?.$case === 'artifactUpdate' && !['agui-state', 'agui-messages'].includes(p.value.artifact.artifactId)) {
      seen.artifact += p.value.artifact.parts.map((x) => (x.content?.$case === 'text' ? x.content.value : '')).join('');
      seen.lastChunk = p.value.lastChunk;
    }
  }
  return seen;
}

const out = { weather: await stream(message('weather')) };
out.ask = await stream(message('ask'));
out.answer = await stream(message('blue', out.ask.taskId));
console.log(JSON.stringify(out));

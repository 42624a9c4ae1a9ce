// Drives @a2a-js/sdk's client against an A2A server and prints what it saw
// as one JSON document, for interop/a2a_js_test.go.
//
//   node a2a-client.mjs BASE_URL BINDING     (BINDING: JSONRPC or HTTP+JSON)
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';

const [base, binding] = process.argv.slice(2);
const warnings = [];
for (const level of ['warn', 'error']) {
  const orig = console[level];
  console[level] = (...args) => { warnings.push(args.map(String).join(' ')); orig(...args); };
}

const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [binding] }));
const client = await factory.createFromUrl(base);
const message = (text) => ({
  messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  metadata: undefined, extensions: [], referenceTaskIds: [],
});
const errorName = async (fn) => {
  try { await fn(); return 'no error'; } catch (e) {
    const name = e?.constructor?.name ?? String(e);
    return e?.cause ? `${name}(cause=${e.cause.constructor?.name})` : name;
  }
};
const state = (s) => TaskState[s];
const out = { protocol: client.protocolName ?? binding };

// The card createFromUrl resolved; getAgentCard() would fetch the extended
// card, which the echo agent keeps for authenticated callers.
out.extendedCardAnonymous = await errorName(() => client.getAgentCard());

const sent = await client.sendMessage({ tenant: '', message: message('hello ' + binding), configuration: undefined, metadata: undefined });
const task = sent.payload?.$case === 'task' ? sent.payload.value : sent;
out.send = { state: state(task.status.state), artifact: task.artifacts[0].parts[0].content.value };

const got = await client.getTask({ tenant: '', id: task.id, historyLength: 1 });
out.get = { id: got.id === task.id, history: got.history.length };

const list = await client.listTasks({ tenant: '', contextId: '', status: TaskState.TASK_STATE_COMPLETED, pageSize: 1, pageToken: '', historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: true });
out.list = { count: list.tasks.length, first: list.tasks[0]?.id === task.id, artifacts: list.tasks[0]?.artifacts.length };

out.errors = {
  getUnknown: await errorName(() => client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined })),
  cancelCompleted: await errorName(() => client.cancelTask({ tenant: '', id: task.id, metadata: undefined })),
  deletePush: await errorName(() => client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'p' })),
  subscribeCompleted: await errorName(async () => { for await (const _ of client.resubscribeTask({ tenant: '', id: task.id })) {} }),
};

const events = [];
for await (const ev of client.sendMessageStream({ tenant: '', message: message('stream'), configuration: undefined, metadata: undefined })) {
  const p = ev.payload;
  switch (p?.$case) {
    case 'task': events.push('task:' + state(p.value.status.state)); break;
    case 'statusUpdate': events.push('status:' + state(p.value.status.state)); break;
    case 'artifactUpdate': events.push('artifact:' + p.value.artifact.parts[0].content.value); break;
    default: events.push(String(p?.$case));
  }
}
out.stream = events;
out.warnings = warnings;
console.log(JSON.stringify(out));

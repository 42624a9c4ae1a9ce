// Drives @a2a-js/sdk 0.3.14's client (installed as a2a-js-sdk-v03), which
// speaks A2A 0.3 only, against an A2A server and prints what it saw as one
// JSON document, for interop/a2ajs_v03_test.go.
//
//   node a2a-client-v03.mjs BASE_URL BINDING     (BINDING: JSONRPC)
import { randomUUID } from 'node:crypto';
import { ClientFactory, ClientFactoryOptions } from 'a2a-js-sdk-v03/client';

const [base, binding] = process.argv.slice(2);
const warnings = [];
for (const level of ['warn', 'error']) {
  const orig = console[level];
  console[level] = (...args) => { warnings.push(args.map(String).join(' ')); orig(...args); };
}

const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [binding] }));
const client = await factory.createFromUrl(base);
const message = (text, taskId) => ({ kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(taskId ? { taskId } : {}) });
const errorName = async (fn) => {
  try { await fn(); return 'no error'; } catch (e) {
    const name = e?.constructor?.name ?? String(e);
    return e?.cause ? `${name}(cause=${e.cause.constructor?.name})` : name;
  }
};
const out = { protocol: binding };

const sent = await client.sendMessage({ message: message('hello 0.3') });
out.send = { kind: sent.kind, state: sent.status?.state, artifact: sent.artifacts?.[0]?.parts?.[0]?.text };

const got = await client.getTask({ id: sent.id, historyLength: 1 });
out.get = { kind: got.kind, id: got.id === sent.id, history: got.history?.length, role: got.history?.[0]?.role };

out.errors = {
  getUnknown: await errorName(() => client.getTask({ id: 'no-such-task' })),
  cancelCompleted: await errorName(() => client.cancelTask({ id: sent.id })),
  resubscribeCompleted: await errorName(async () => { for await (const _ of client.resubscribeTask({ id: sent.id })) {} }),
};

const events = [];
for await (const ev of client.sendMessageStream({ message: message('stream') })) {
  switch (ev.kind) {
    case 'task': events.push('task:' + ev.status.state); break;
    case 'status-update': events.push('status:' + ev.status.state + (ev.final ? '(final)' : '')); break;
    case 'artifact-update': events.push('artifact:' + ev.artifact.parts[0].text); break;
    default: events.push(String(ev.kind));
  }
}
out.stream = events;

// A task that waits for input: push configs, then a cancel.
const asked = await client.sendMessage({ message: message('ask') });
out.ask = { state: asked.status.state, question: asked.status.message?.parts?.[0]?.text };
const config = { id: 'hook-1', url: 'http://127.0.0.1:9/hook', token: 'secret', authentication: { schemes: ['Bearer'], credentials: 'cred' } };
const set = await client.setTaskPushNotificationConfig({ taskId: asked.id, pushNotificationConfig: config });
const fetched = await client.getTaskPushNotificationConfig({ id: asked.id, pushNotificationConfigId: 'hook-1' });
const listed = await client.listTaskPushNotificationConfig({ id: asked.id });
await client.deleteTaskPushNotificationConfig({ id: asked.id, pushNotificationConfigId: 'hook-1' });
const after = await client.listTaskPushNotificationConfig({ id: asked.id });
out.push = {
  set: set.taskId === asked.id && set.pushNotificationConfig.id === 'hook-1' && set.pushNotificationConfig.authentication?.schemes?.[0] === 'Bearer',
  get: fetched.pushNotificationConfig.url,
  list: listed.map((c) => c.pushNotificationConfig.id),
  afterDelete: after.length,
};
const canceled = await client.cancelTask({ id: asked.id });
out.cancel = canceled.status.state;
out.warnings = warnings;
console.log(JSON.stringify(out));

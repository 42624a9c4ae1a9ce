// Drives @a2a-js/sdk 1.3.0's client through the A2A MUSTs of
// interop/a2ajs_conformance_test.go and prints what it saw as one JSON
// document.
//
//   node a2a-conformance.mjs BINDING BASE FLAT_BASE STRICT_BASE EXTENSION HOOK_URL
//
// BINDING is JSONRPC or HTTP+JSON. BASE serves the task runtime; FLAT_BASE
// the same under a card without streaming; STRICT_BASE under a card that
// requires EXTENSION. HOOK_URL receives one push notification sent by the
// SDK's own sender, so that the test learns where its receivers look for
// the token.
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, RestTransportFactory,
  ServiceParameters, withA2AExtensions,
} from '@a2a-js/sdk/client';
import { DefaultPushNotificationSender, InMemoryPushNotificationStore } from '@a2a-js/sdk/server';

const [binding, base, flatBase, strictBase, extension, hookURL] = process.argv.slice(2);
// The SDK logs each push notification it sends on stdout, where this
// script writes its result.
const stderr = console.error.bind(console);
console.info = (...args) => stderr(...args);
const warnings = [];
for (const level of ['warn', 'error']) {
  const orig = console[level];
  console[level] = (...args) => { warnings.push(args.map(String).join(' ')); orig(...args); };
}

const clientOf = async (url) => {
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [binding] }));
  return factory.createFromUrl(url);
};
const message = (text, taskId = '') => ({
  messageId: randomUUID(), contextId: '', taskId, role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  metadata: undefined, extensions: [], referenceTaskIds: [],
});
const send = (client, text, taskId, options) =>
  client.sendMessage({ tenant: '', message: message(text, taskId), configuration: undefined, metadata: undefined }, options);
const taskOf = (sent) => (sent.payload?.$case === 'task' ? sent.payload.value : sent);
const errorName = async (fn) => {
  try { await fn(); return 'ok'; } catch (e) {
    const name = e?.constructor?.name ?? String(e);
    return e?.cause ? `${name}(cause=${e.cause.constructor?.name})` : name;
  }
};
const state = (s) => TaskState[s];
const name = (ev) => {
  const p = ev.payload;
  switch (p?.$case) {
    case 'task': return 'task:' + state(p.value.status.state);
    case 'statusUpdate': return 'status:' + state(p.value.status.state);
    case 'artifactUpdate': return 'artifact:' + p.value.artifact.parts[0].content.value;
    default: return String(p?.$case);
  }
};
const out = {};
const client = await clientOf(base);

// §3.1.10: deleting a push config is idempotent.
{
  const task = taskOf(await send(client, 'hello'));
  const cfg = await client.createTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: '', url: 'http://127.0.0.1:9/hook', token: '', authentication: undefined });
  const del = (taskId, id) => errorName(() => client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id }));
  out.deletePush = [await del(task.id, cfg.id), await del(task.id, cfg.id), await del(task.id, 'never-made'), await del('no-such-task', cfg.id)];
}

// §3.1.6: a subscription to a task waiting for input stays open through the
// answer and ends with the task.
{
  const task = taskOf(await send(client, 'ask'));
  const events = [];
  let first;
  const subscribed = new Promise((resolve) => { first = resolve; });
  const followed = (async () => {
    try {
      for await (const ev of client.resubscribeTask({ tenant: '', id: task.id })) {
        events.push(name(ev));
        first();
      }
    } catch (e) { events.push('error:' + (e?.constructor?.name ?? e)); first(); }
  })();
  await subscribed;
  const done = taskOf(await send(client, 'blue', task.id));
  await followed;
  out.subscribeInputRequired = { answered: state(done.status.state), events };
}

// §3.3.4: no streaming on a card without it; a required extension named or
// refused.
{
  const flat = await clientOf(flatBase);
  const task = taskOf(await send(flat, 'ask'));
  out.subscribeWithoutStreaming = await errorName(async () => { for await (const _ of flat.resubscribeTask({ tenant: '', id: task.id })) {} });
  const strict = await clientOf(strictBase);
  out.withoutExtension = await errorName(() => send(strict, 'hi'));
  const named = { serviceParameters: ServiceParameters.create(withA2AExtensions(extension)) };
  out.withExtension = await errorName(() => send(strict, 'hi', '', named));
}

// §3.6.2: a v0.3 client (the SDK's legacy transport, which sends
// A2A-Version: 0.3 and v0.3 method names and paths) is served as 0.3, and
// would be told that its version is not served where 0.3 is not.
{
  const card = await (await fetch(base + '/.well-known/agent-card.json')).json();
  card.supportedInterfaces = card.supportedInterfaces.map((i) => ({ ...i, protocolVersion: '0.3' }));
  const transports = [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } }), new RestTransportFactory({ legacyCompat: { enabled: true } })];
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports, preferredTransports: [binding] }));
  const legacy = await factory.createFromAgentCard(card);
  let said = '';
  out.legacyGetTask = await errorName(async () => {
    try { await legacy.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined }); } catch (e) { said = String(e?.message); throw e; }
  });
  out.legacyToldVersion = /version '0\.3' is not supported/.test(said);
}

// Push notifications: the SDK's own sender posts one to HOOK_URL.
{
  const store = new InMemoryPushNotificationStore();
  const context = { requestedVersion: '1.0' };
  await store.save('t1', context, { tenant: '', taskId: 't1', id: 'c1', url: hookURL, token: 'token-from-a2a-js', authentication: undefined });
  const task = { id: 't1', contextId: 'c1', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined }, artifacts: [], history: [], metadata: undefined };
  await new DefaultPushNotificationSender(store).send({ payload: { $case: 'task', value: task } }, context, task);
  out.pushSent = true;
}

out.warnings = warnings.filter((w) => !w.startsWith('No push notification serializer'));
console.log(JSON.stringify(out));

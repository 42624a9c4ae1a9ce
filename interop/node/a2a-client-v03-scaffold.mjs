// Drives @a2a-js/sdk 0.3.14's client (installed as a2a-js-sdk-v03) against
// a fresh scaffold (examples/server) and prints what it saw as one JSON
// document, for interop/scaffold_v03_test.go.
//
//   node a2a-client-v03-scaffold.mjs BASE_URL BINDING   (BINDING: JSONRPC or HTTP+JSON)
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
const card = await client.getAgentCard();
const message = (text, taskId) => ({ kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(taskId ? { taskId } : {}) });
const text = (parts) => (parts ?? []).filter((p) => p.kind === 'text').map((p) => p.text).join('');
const errorName = async (fn) => {
  try { await fn(); return 'no error'; } catch (e) {
    const name = e?.constructor?.name ?? String(e);
    return e?.cause ? `${name}(cause=${e.cause.constructor?.name})` : name;
  }
};
// A stream of many working updates or artifact chunks reads as one step.
const step = (list, s) => { if (list[list.length - 1] !== s) list.push(s); };
const describe = (ev) => {
  switch (ev.kind) {
    case 'task': return 'task:' + ev.status.state;
    case 'status-update': return 'status:' + ev.status.state + (ev.final ? '(final)' : '');
    case 'artifact-update': return 'artifact';
    default: return String(ev.kind);
  }
};
const out = {
  protocol: binding,
  card: { url: card.url, preferredTransport: card.preferredTransport, protocolVersion: card.protocolVersion, name: card.name },
};

const sent = await client.sendMessage({ message: message('What is the weather in Paris?') });
out.send = { kind: sent.kind, state: sent.status?.state, sunny: text(sent.artifacts?.[0]?.parts).includes('sunny in Paris') };
const got = await client.getTask({ id: sent.id });
out.get = { kind: got.kind, same: got.id === sent.id, state: got.status.state };

const events = [];
for await (const ev of client.sendMessageStream({ message: message('And tomorrow?') })) step(events, describe(ev));
out.stream = events;

const hook = { id: 'hook', url: 'http://127.0.0.1:9/hook' };
out.errors = {
  getUnknown: await errorName(() => client.getTask({ id: 'no-such-task' })),
  cancelCompleted: await errorName(() => client.cancelTask({ id: sent.id })),
  pushSet: await errorName(() => client.setTaskPushNotificationConfig({ taskId: sent.id, pushNotificationConfig: hook })),
  pushGet: await errorName(() => client.getTaskPushNotificationConfig({ id: sent.id, pushNotificationConfigId: 'hook' })),
  pushList: await errorName(() => client.listTaskPushNotificationConfig({ id: sent.id })),
  pushDelete: await errorName(() => client.deleteTaskPushNotificationConfig({ id: sent.id, pushNotificationConfigId: 'hook' })),
};

// A confirmation the agent asks for, followed by a resubscription through
// the answer to the task's end.
const asked = await client.sendMessage({ message: message('Delete the draft') });
out.ask = { state: asked.status.state, question: text(asked.status.message?.parts).includes('Delete the draft?') };
const followed = [];
let subscribed;
const started = new Promise((resolve) => { subscribed = resolve; });
const following = (async () => {
  for await (const ev of client.resubscribeTask({ id: asked.id })) { step(followed, describe(ev)); subscribed(); }
})();
await started;
const kept = await client.sendMessage({ message: message('no', asked.id) });
await following;
out.resubscribe = { first: followed[0], last: followed[followed.length - 1], artifact: followed.includes('artifact') };
out.answer = { state: kept.status.state, text: text(kept.artifacts?.[kept.artifacts.length - 1]?.parts) };

const again = await client.sendMessage({ message: message('Delete it all') });
const canceled = await client.cancelTask({ id: again.id });
out.cancel = canceled.status.state;
out.warnings = warnings;
console.log(JSON.stringify(out));

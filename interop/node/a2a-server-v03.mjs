// Serves an @a2a-js/sdk 0.3.14 agent (installed as a2a-js-sdk-v03), which
// speaks A2A 0.3 only, on loopback: JSON-RPC at /a2a/jsonrpc, HTTP+JSON at
// /a2a/rest, and a 0.3 card
// (url, preferredTransport, protocolVersion 0.3.0) at
// /.well-known/agent-card.json, push configs on. The agent asks for input
// when told "ask", and otherwise echoes the message as an artifact and
// completes. Prints the base URL, then serves until stdin closes. For
// interop/a2ajs_v03_test.go.
//
//   node a2a-server-v03.mjs
import express from 'express';
import { DefaultRequestHandler, InMemoryPushNotificationStore, InMemoryTaskStore } from 'a2a-js-sdk-v03/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from 'a2a-js-sdk-v03/server/express';

const now = () => new Date().toISOString();
const textOf = (m) => m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');

const executor = {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const user = ctx.userMessage;
    if (!ctx.task) {
      bus.publish({ kind: 'task', id: taskId, contextId, status: { state: 'submitted', timestamp: now() }, history: [user], artifacts: [] });
    }
    if (textOf(user) === 'ask') {
      const question = { kind: 'message', messageId: taskId + '-q', role: 'agent', parts: [{ kind: 'text', text: 'which colour?' }], taskId, contextId };
      bus.publish({ kind: 'status-update', taskId, contextId, status: { state: 'input-required', message: question, timestamp: now() }, final: true });
      bus.finished();
      return;
    }
    bus.publish({ kind: 'artifact-update', taskId, contextId, artifact: { artifactId: taskId + '-echo', parts: [{ kind: 'text', text: textOf(user) }] }, lastChunk: true });
    bus.publish({ kind: 'status-update', taskId, contextId, status: { state: 'completed', timestamp: now() }, final: true });
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    bus.publish({ kind: 'status-update', taskId, contextId: '', status: { state: 'canceled', timestamp: now() }, final: true });
    bus.finished();
  },
};

const app = express();
const server = app.listen(0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: 'js-echo-0.3', description: 'A 0.3 agent.', version: '1.0.0', protocolVersion: '0.3.0',
    url: base + '/a2a/jsonrpc', preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url: base + '/a2a/jsonrpc', transport: 'JSONRPC' }, { url: base + '/a2a/rest', transport: 'HTTP+JSON' }],
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats what it is told.', tags: ['echo'] }],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, undefined, new InMemoryPushNotificationStore());
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  console.log(base);
});
process.stdin.resume();
process.stdin.on('end', () => { server.close(); process.exit(0); });

// Serves an @a2a-js/sdk 1.3.0 agent with its v0.3 layer on (legacyCompat),
// for comparing how it and our server answer 0.3 clients: JSON-RPC at
// /a2a/jsonrpc and HTTP+JSON at /a2a/rest, each listed at 1.0 and at 0.3,
// push configs on. The agent asks
// for input when told "ask", and otherwise echoes the message as an
// artifact and completes. Prints the base URL, then serves until stdin
// closes. For interop/a2ajs_v03_test.go.
//
//   node a2a-server-legacy.mjs
import express from 'express';
import { TaskState } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryPushNotificationStore, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const now = () => new Date().toISOString();
const textOf = (m) => m.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
const part = (text) => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const status = (state, message) => ({ state, message, timestamp: now() });

const executor = {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const user = ctx.userMessage;
    if (!ctx.task) {
      bus.publish({ kind: 'task', data: { id: taskId, contextId, status: status(TaskState.TASK_STATE_SUBMITTED), artifacts: [], history: [user], metadata: undefined } });
    }
    if (textOf(user) === 'ask') {
      const question = { messageId: taskId + '-q', contextId, taskId, role: 2, parts: [part('which colour?')], metadata: undefined, extensions: [], referenceTaskIds: [] };
      bus.publish({ kind: 'statusUpdate', data: { taskId, contextId, status: status(TaskState.TASK_STATE_INPUT_REQUIRED, question), metadata: undefined } });
      bus.finished();
      return;
    }
    bus.publish({ kind: 'artifactUpdate', data: { taskId, contextId, artifact: { artifactId: taskId + '-echo', name: 'echo', description: '', parts: [part(textOf(user))], metadata: undefined, extensions: [] }, append: false, lastChunk: true, metadata: undefined } });
    bus.publish({ kind: 'statusUpdate', data: { taskId, contextId, status: status(TaskState.TASK_STATE_COMPLETED), metadata: undefined } });
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    bus.publish({ kind: 'statusUpdate', data: { taskId, contextId: '', status: status(TaskState.TASK_STATE_CANCELED), metadata: undefined } });
    bus.finished();
  },
};

const app = express();
const server = app.listen(0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: 'js-legacy', description: 'Serves 0.3 beside 1.0.', version: '1.0.0',
    supportedInterfaces: [
      { url: base + '/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: base + '/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
      { url: base + '/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
      { url: base + '/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3', tenant: '' },
    ],
    provider: undefined, documentationUrl: undefined, iconUrl: undefined,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {}, securityRequirements: [], signatures: [],
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats what it is told.', tags: ['echo'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, undefined, new InMemoryPushNotificationStore());
  const legacyCompat = { enabled: true };
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler, legacyCompat }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  console.log(base);
});
process.stdin.resume();
process.stdin.on('end', () => { server.close(); process.exit(0); });

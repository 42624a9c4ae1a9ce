// Serves an @a2a-js/sdk agent on loopback that answers every message with a
// task that echoes its text as an artifact and completes: JSON-RPC at
// /a2a/jsonrpc, HTTP+JSON at /a2a/rest and the card at
// /.well-known/agent-card.json. Prints the base URL, then serves until
// stdin closes. For interop/a2a_js_test.go.
//
//   node a2a-server.mjs
import express from 'express';
import { Role, TaskState } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const now = () => new Date().toISOString();
const textOf = (m) => m.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
const part = (text) => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });

const executor = {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const user = ctx.userMessage;
    bus.publish({ kind: 'task', data: { id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() }, artifacts: [], history: [user], metadata: undefined } });
    bus.publish({ kind: 'statusUpdate', data: { taskId, contextId, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() }, metadata: undefined } });
    bus.publish({ kind: 'artifactUpdate', data: { taskId, contextId, artifact: { artifactId: taskId + '-echo', name: 'echo', description: '', parts: [part(textOf(user))], metadata: undefined, extensions: [] }, append: false, lastChunk: true, metadata: undefined } });
    bus.publish({ kind: 'statusUpdate', data: { taskId, contextId, status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now() }, metadata: undefined } });
    bus.finished();
  },
  async cancelTask(taskId, bus) { bus.finished(); },
};

const app = express();
const server = app.listen(0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: 'js-echo', description: 'Echoes what it is told.', version: '1.0.0',
    supportedInterfaces: [
      { url: base + '/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: base + '/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
    ],
    provider: undefined, documentationUrl: undefined, iconUrl: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {}, securityRequirements: [], signatures: [],
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats what it is told.', tags: ['echo'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  console.log(base);
});
process.stdin.resume();
process.stdin.on('end', () => { server.close(); process.exit(0); });

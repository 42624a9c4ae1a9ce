// Serves an @a2a-js/sdk agent on loopback that answers every message with a
// task that echoes its text as an artifact and completes: JSON-RPC at
// /a2a/jsonrpc, HTTP+JSON at /a2a/rest and the card at
// /.well-known/agent-card.json. Prints the base URL, then serves until
// stdin closes. For interop/a2a_js_test.go.
//
//   node a2a-server.mjs [--no-streaming]
import { Role, TaskState } from '@a2a-js/sdk';
import { serveAgent } from './a2a-js-serve.mjs';

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

serveAgent({ name: 'js-echo', description: 'Echoes what it is told.', skill: { id: 'echo', name: 'Echo', description: 'Repeats what it is told.', tags: ['echo'] } }, executor);
